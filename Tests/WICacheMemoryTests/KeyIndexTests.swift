import Testing
@testable import WICacheMemory
import WITestSupport

@Suite struct KeyIndexTests {
    /// 20,000 random inserts and removals over 3,000 keys agree exactly with a Dictionary model, through growth
    /// and backward-shift deletions.
    @Test func agreesWithADictionary() {
        var pool = NodePool()
        var index = KeyIndex()
        var model: [String: Int32] = [:]
        var random = SeededRandom(seed: 7)
        for _ in 0..<20_000 {
            let name = "key\(random.next() % 3_000)"
            let key = CacheKey(name)
            if let node = model[name] {
                #expect(index.find(key, in: pool) == node)
                index.remove(node, hash: key.hash, in: pool)
                _ = pool.remove(node)
                model[name] = nil
            } else {
                #expect(index.find(key, in: pool) == nil)
                let node = pool.append(Node(key: key, image: nil, cost: 0, deadline: .max), to: 0)
                index.insert(node, hash: key.hash, in: pool)
                model[name] = node
            }
        }
        #expect(index.count == model.count)
        for (name, node) in model { #expect(index.find(CacheKey(name), in: pool) == node) }
        #expect(index.find(CacheKey("absent"), in: pool) == nil)
    }
}

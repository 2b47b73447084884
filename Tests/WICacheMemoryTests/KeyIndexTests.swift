import Testing
import WICore
@testable import WICacheMemory
import WITestSupport

@Suite struct KeyIndexTests {
    /// Inserts `key` for a new node holding `image`; returns the node.
    static func insert(_ key: CacheKey, image: Image? = nil, into index: inout KeyIndex, pool: inout NodePool) -> Int32
    {
        let node = pool.append(Node(hash: key.hash, cost: 0, deadline: .max), to: 0)
        index.insert(key, node: node, image: image, expires: false)
        return node
    }

    /// Removes `node` (holding `key`) from the index and the pool.
    static func remove(_ node: Int32, _ key: CacheKey, from index: inout KeyIndex, pool: inout NodePool) {
        _ = index.remove(at: index.slot(of: node, hash: key.hash))
        pool.remove(node)
    }

    /// 20,000 random inserts and removals over 3,000 keys agree exactly with a Dictionary model, through growth
    /// and backward-shift deletions; every slot keeps its key and image.
    @Test func agreesWithADictionary() {
        var pool = NodePool()
        var index = KeyIndex()
        var model: [String: (node: Int32, image: Image)] = [:]
        var random = SeededRandom(seed: 7)
        for _ in 0..<20_000 {
            let name = "key\(random.next() % 3_000)"
            let key = CacheKey(name, secret: fixedKeySecret)
            if let entry = model[name] {
                #expect(index.find(key).map(index.node(at:)) == entry.node)
                Self.remove(entry.node, key, from: &index, pool: &pool)
                model[name] = nil
            } else {
                #expect(index.find(key) == nil)
                let image = makeImage(cost: 4)
                model[name] = (Self.insert(key, image: image, into: &index, pool: &pool), image)
            }
        }
        #expect(index.count == model.count)
        for (name, entry) in model {
            let slot = index.find(CacheKey(name, secret: fixedKeySecret))
            #expect(slot.map(index.node(at:)) == entry.node)
            #expect(slot.map(index.key(at:)) == name)
            #expect(slot.flatMap(index.image(at:)) === entry.image)
            #expect(slot.map(index.expires(at:)) == false)
        }
        #expect(index.find(CacheKey("absent", secret: fixedKeySecret)) == nil)
    }

    /// Keys whose hashes are equal (forced) share a tag and a probe run: each is still found by its string, and
    /// removing one in the middle of the run keeps the others reachable.
    @Test func keysWithEqualHashesStayApart() {
        var pool = NodePool()
        var index = KeyIndex()
        let keys = (0..<40).map { CacheKey("same\($0)", hash: $0 < 20 ? 0xDEAD_BEEF_0000 : 0xDEAD_BEEF_0001) }
        let nodes = keys.map { Self.insert($0, into: &index, pool: &pool) }
        for (key, node) in zip(keys, nodes) { #expect(index.find(key).map(index.node(at:)) == node) }
        #expect(index.find(CacheKey("same40", hash: 0xDEAD_BEEF_0000)) == nil)
        for position in stride(from: 0, to: 40, by: 3) {
            Self.remove(nodes[position], keys[position], from: &index, pool: &pool)
        }
        for position in 0..<40 {
            let expected: Int32? = position % 3 == 0 ? nil : nodes[position]
            #expect(index.find(keys[position]).map(index.node(at:)) == expected)
        }
        #expect(index.count == 26)
    }

    /// A slot's deadline flag and image change in place.
    @Test func updateKeepsTheSlot() {
        var pool = NodePool()
        var index = KeyIndex()
        let key = CacheKey("k", secret: fixedKeySecret)
        let node = Self.insert(key, image: makeImage(cost: 4), into: &index, pool: &pool)
        let replacement = makeImage(cost: 8)
        let slot = index.find(key)
        #expect(slot != nil)
        guard let slot else { return }
        index.update(slot, image: replacement, expires: true)
        #expect(index.find(key) == slot)
        #expect(index.node(at: slot) == node)
        #expect(index.expires(at: slot))
        #expect(index.image(at: slot) === replacement)
        index.update(slot, image: replacement, expires: false)
        #expect(!index.expires(at: slot) && index.node(at: slot) == node)
    }

    /// Reference bits are per node: a reused node starts unreferenced.
    @Test func referenceBitsFollowTheNodes() {
        var pool = NodePool()
        let nodes = (0..<130).map { pool.append(Node(hash: UInt64($0), cost: 0, deadline: .max), to: 0) }
        for node in nodes where node % 3 == 0 { pool.markReferenced(node) }
        #expect(nodes.filter { pool.isReferenced($0) }.count == 44)
        pool.clearReferenced(129)
        #expect(!pool.isReferenced(129) && pool.isReferenced(126))
        pool.remove(126)
        let reused = pool.append(Node(hash: 0, cost: 0, deadline: .max), to: 0)
        #expect(reused == 126)
        #expect(!pool.isReferenced(reused))
    }
}

@Suite struct KeyHashTests {
    private func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { KeyHash.hash($0, secret: fixedKeySecret) }
    }

    /// Every prefix of a 100-byte key (lengths 0 to 100: the empty key, the 1-3, 4-7 and 8-16 byte tails, the
    /// 16-byte blocks) and every single-bit flip of a 40-byte URL hash to pairwise different values.
    @Test func prefixesAndBitFlipsHashApart() {
        let long = Array("https://example.com/images/4217/photo.jpg?w=256&h=256&fit=crop&quality=80&fmt=webp&v=12".utf8)
        var seen = Set<UInt64>()
        for length in 0...long.count { seen.insert(hash(Array(long[..<length]))) }
        #expect(seen.count == long.count + 1)
        let url = Array(long[..<40])
        var flips = Set<UInt64>()
        for bit in 0..<(url.count * 8) {
            var flipped = url
            flipped[bit / 8] ^= UInt8(1) << (bit % 8)
            flips.insert(hash(flipped))
        }
        #expect(flips.count == 320)
        #expect(!flips.contains(hash(url)))
    }

    /// Keys with the same bytes hash the same, whatever their storage (native, small, substring-made).
    @Test func dependsOnlyOnTheBytes() {
        let native = "https://example.com/images/1/photo.jpg"
        let rebuilt = String(native.utf8.map { Character(Unicode.Scalar($0)) })
        let sliced = String("xx" + native + "yy").dropFirst(2).dropLast(2)
        func key(_ string: String) -> CacheKey { CacheKey(string, secret: fixedKeySecret) }
        #expect(key(native).hash == key(rebuilt).hash)
        #expect(key(native).hash == key(String(sliced)).hash)
        #expect(key("short").hash == key(String("short".reversed().reversed())).hash)
        #expect(key(native) == key(rebuilt))
        #expect(key("caf\u{E9}") != key("cafe\u{301}"))  // NFC and NFD spellings are different keys
    }

    /// Through the cache: a key is found by a string with the same bytes built anew (not the stored object), and
    /// the NFD spelling of an NFC key finds nothing.
    @Test func cacheTellsKeysApartByTheirBytes() {
        let cache = makeCache(policy: .tinyLFU, countLimit: 100)
        let image = makeImage(cost: 4)
        cache.setImage(image, forKey: "https://example.com/caf\u{E9}.png")
        let rebuilt = ["https://example.com/", "caf\u{E9}", ".png"].joined()
        #expect(cache.image(forKey: rebuilt) === image)
        #expect(cache.image(forKey: "https://example.com/cafe\u{301}.png") == nil)
        #expect(cache.statistics.hits == 1)
        #expect(cache.statistics.misses == 1)
    }

    /// 10,000 URL keys spread over 16 shards (the low 4 bits) and over the index's home slots (bits 16 and up)
    /// within 25% of even, under a fixed secret.
    @Test func spreadsURLKeysEvenly() {
        var shards = [Int](repeating: 0, count: 16)
        var homes = [Int](repeating: 0, count: 1024)
        for number in 0..<10_000 {
            let value = hash(Array("https://example.com/images/\(number)/photo.jpg".utf8))
            shards[Int(value & 15)] += 1
            homes[Int((value >> 16) & 1023)] += 1
        }
        #expect(shards.min()! >= 470 && shards.max()! <= 780)
        #expect(homes.max()! <= 30)
    }
}

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
            let key = CacheKey(name, secret: fixedKeySecret)
            if let node = model[name] {
                #expect(index.find(key, in: pool) == node)
                index.remove(node, hash: key.hash)
                _ = pool.remove(node)
                model[name] = nil
            } else {
                #expect(index.find(key, in: pool) == nil)
                let node = pool.append(Node(key: key, image: nil, cost: 0, deadline: .max), to: 0)
                index.insert(node, hash: key.hash)
                model[name] = node
            }
        }
        #expect(index.count == model.count)
        for (name, node) in model { #expect(index.find(CacheKey(name, secret: fixedKeySecret), in: pool) == node) }
        #expect(index.find(CacheKey("absent", secret: fixedKeySecret), in: pool) == nil)
    }

    /// Keys whose hashes are equal (forced) share a tag and a probe run: each is still found by its string, and
    /// removing one in the middle of the run keeps the others reachable.
    @Test func keysWithEqualHashesStayApart() {
        var pool = NodePool()
        var index = KeyIndex()
        let keys = (0..<40).map { CacheKey("same\($0)", hash: $0 < 20 ? 0xDEAD_BEEF_0000 : 0xDEAD_BEEF_0001) }
        var nodes: [Int32] = []
        for key in keys {
            let node = pool.append(Node(key: key, image: nil, cost: 0, deadline: .max), to: 0)
            index.insert(node, hash: key.hash)
            nodes.append(node)
        }
        for (key, node) in zip(keys, nodes) { #expect(index.find(key, in: pool) == node) }
        #expect(index.find(CacheKey("same40", hash: 0xDEAD_BEEF_0000), in: pool) == nil)
        for position in stride(from: 0, to: 40, by: 3) {
            index.remove(nodes[position], hash: keys[position].hash)
            _ = pool.remove(nodes[position])
        }
        for position in 0..<40 {
            let expected: Int32? = position % 3 == 0 ? nil : nodes[position]
            #expect(index.find(keys[position], in: pool) == expected)
        }
        #expect(index.count == 26)
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
        #expect(key("caf\u{E9}") != key("cafe\u{301}"))   // NFC and NFD spellings are different keys
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
        var shards = [Int](repeating: 0, count: 16), homes = [Int](repeating: 0, count: 1024)
        for number in 0..<10_000 {
            let value = hash(Array("https://example.com/images/\(number)/photo.jpg".utf8))
            shards[Int(value & 15)] += 1
            homes[Int((value >> 16) & 1023)] += 1
        }
        #expect(shards.min()! >= 470 && shards.max()! <= 780)
        #expect(homes.max()! <= 30)
    }
}

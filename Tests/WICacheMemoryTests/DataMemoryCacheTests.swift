import Foundation
import Testing
import WICore
import WICacheMemory
import WITestSupport

/// The byte-bounded data tier: least recently used out by bytes, the eighth-of-the-limit rule, HTTP cache info
/// beside the bytes, and the limit under concurrent use.
@Suite struct DataMemoryCacheTests {
    static let info = HTTPCacheInfo(
        etag: "\"e1\"", lastModified: "Mon, 02 Jan 2006 15:04:05 GMT",
        date: Date(timeIntervalSince1970: 1_000), freshnessLifetime: 60)

    /// The keys among `keys` the cache holds, in the order given.
    static func held(_ cache: DataMemoryCache, _ keys: [String]) -> [String] {
        keys.filter { cache.containsData(forKey: $0) }
    }

    @Test func leastRecentlyUsedGoFirstUntilTheBytesFit() {
        let cache = DataMemoryCache(byteLimit: 400)  // an entry may have 50 bytes
        let keys = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]
        for (key, size) in zip(keys, [50, 20, 20, 50, 50, 50, 50, 50, 50]) {
            cache.setData(Data(repeating: 1, count: size), forKey: key)
        }
        #expect(cache.usage == (390, 9))
        #expect(cache.data(forKey: "a")?.count == 50)  // a is now the most recent
        // 440 bytes: b and c, the two least recent, go; one entry of 50 takes the place of two of 20.
        cache.setData(Data(repeating: 2, count: 50), forKey: "j")
        #expect(Self.held(cache, keys) == ["a", "d", "e", "f", "g", "h", "i", "j"])
        #expect(cache.usage == (400, 8))
        // Rewriting d with 10 bytes frees 40 and makes it the most recent: e goes next, not d.
        cache.setData(Data(repeating: 3, count: 10), forKey: "d")
        cache.setData(Data(repeating: 4, count: 50), forKey: "k")
        #expect(Self.held(cache, keys) == ["a", "d", "f", "g", "h", "i", "j", "k"])
        #expect(cache.usage == (360, 8))
        #expect(cache.data(forKey: "d") == Data(repeating: 3, count: 10))
    }

    /// Hits alone grow the recency log, which is compacted; the order survives the compactions.
    @Test func manyHitsKeepTheOrder() {
        let cache = DataMemoryCache(byteLimit: 800)
        for index in 0..<8 { cache.setData(Data(repeating: UInt8(index), count: 100), forKey: "k\(index)") }
        for _ in 0..<10_000 {
            _ = cache.data(forKey: "k0")
            _ = cache.data(forKey: "k1")
        }
        cache.setData(Data(count: 100), forKey: "k8")
        cache.setData(Data(count: 100), forKey: "k9")
        #expect(Self.held(cache, (0..<10).map { "k\($0)" }) == ["k0", "k1", "k4", "k5", "k6", "k7", "k8", "k9"])
        #expect(cache.usage == (800, 8))
    }

    @Test func anEntryOverAnEighthIsNotKeptAndRemovesTheOldOne() {
        let cache = DataMemoryCache(byteLimit: 800)
        cache.setData(Data(repeating: 7, count: 50), forKey: "other")
        cache.setData(Data(repeating: 1, count: 100), httpCacheInfo: Self.info, forKey: "k")  // an eighth: kept
        #expect(cache.usage == (150, 2))
        cache.setData(Data(repeating: 2, count: 101), httpCacheInfo: Self.info, forKey: "k")
        #expect(cache.data(forKey: "k") == nil)
        #expect(cache.httpCacheInfo(forKey: "k") == nil)
        #expect(cache.usage == (50, 1))
        #expect(cache.data(forKey: "other") == Data(repeating: 7, count: 50))
    }

    @Test func httpCacheInfoIsKeptAndRenewed() {
        let cache = DataMemoryCache(byteLimit: 800)
        cache.setData(Data([1, 2, 3]), httpCacheInfo: Self.info, forKey: "k")
        #expect(cache.httpCacheInfo(forKey: "k") == Self.info)
        var renewed = Self.info
        renewed.date = Date(timeIntervalSince1970: 2_000)
        renewed.freshnessLifetime = 120
        cache.setHTTPCacheInfo(renewed, forKey: "k")
        #expect(cache.httpCacheInfo(forKey: "k") == renewed)
        #expect(cache.data(forKey: "k") == Data([1, 2, 3]))  // the bytes stay
        cache.setHTTPCacheInfo(renewed, forKey: "missing")  // no entry: none made
        #expect(!cache.containsData(forKey: "missing"))
        #expect(cache.usage == (3, 1))
        cache.setData(Data([4]), forKey: "k")  // new bytes without info drop the old info
        #expect(cache.httpCacheInfo(forKey: "k") == nil)
    }

    @Test func removeDataAndRemoveAllData() {
        let cache = DataMemoryCache(byteLimit: 800)
        for index in 0..<8 { cache.setData(Data(repeating: UInt8(index), count: 100), forKey: "k\(index)") }
        cache.removeData(forKey: "k3")
        cache.removeData(forKey: "k3")
        #expect(cache.usage == (700, 7))
        cache.removeAllData()
        #expect(cache.usage == (0, 0))
        #expect(cache.data(forKey: "k0") == nil)
        // Empty again: a full cache evicts the oldest of its new entries, not a ghost of the old ones.
        for index in 0..<9 { cache.setData(Data(count: 100), forKey: "n\(index)") }
        #expect(Self.held(cache, (0..<9).map { "n\($0)" }) == (1..<9).map { "n\($0)" })
        #expect(cache.usage == (800, 8))
    }

    @Test func namesAndLimits() {
        #expect(DataMemoryCache(byteLimit: 1).metricsName == "memory-data")
        #expect(DataMemoryCache(byteLimit: 1, metricsName: "variants").metricsName == "variants")
        let none = DataMemoryCache(byteLimit: -5)
        #expect(none.byteLimit == 0)
        none.setData(Data([1]), forKey: "k")
        #expect(none.usage == (0, 0))
    }

    /// 8 threads, 10,000 operations each (60% get, 35% set, 5% remove) over 300 keys whose sizes vary: no call
    /// returns with more bytes kept than the limit, every hit has the bytes of its key, and afterwards the bytes
    /// and count are those of the entries held.
    @Test func concurrentUseStaysWithinTheLimit() async {
        let limit = 16_000
        let cache = DataMemoryCache(byteLimit: limit)
        let keys = (0..<300).map { "https://example.com/variants/\($0).webp" }
        let values = (0..<300).map { Data(repeating: UInt8($0 % 251), count: 1 + $0 * 7 % (limit / 8)) }
        let counts = await onThreads(8) { thread -> (hits: Int, violations: Int) in
            var random = SeededRandom(seed: UInt64(thread + 1))
            var hits = 0
            var violations = 0
            for _ in 0..<10_000 {
                let index = Int(random.next() % 300)
                let roll = random.next() % 20
                if roll < 12 {
                    if let data = cache.data(forKey: keys[index]) {
                        hits += 1
                        if data != values[index] { violations += 1 }
                    }
                } else if roll < 19 {
                    cache.setData(values[index], forKey: keys[index])
                    if cache.usage.bytes > limit { violations += 1 }
                } else {
                    cache.removeData(forKey: keys[index])
                }
            }
            return (hits, violations)
        }
        #expect(counts.reduce(0) { $0 + $1.violations } == 0)
        #expect(counts.reduce(0) { $0 + $1.hits } > 0)
        let held = (0..<300).filter { cache.containsData(forKey: keys[$0]) }
        let usage = cache.usage
        #expect(usage.bytes <= limit)
        #expect(usage.bytes == held.reduce(0) { $0 + values[$1].count })
        #expect(usage.count == held.count)
        #expect(held.count < 300)  // the limit made it evict
    }
}

import Testing
import WICore
import WICacheMemory

/// CLOCK's documented order: entries queue in insertion order; a hit sets a bit; to make room the front entry is
/// evicted unless its bit is set, in which case the bit is cleared and the entry goes to the back. A new entry
/// joins the back of the queue before room is made.
@Suite struct ClockEvictionTests {
    @Test func scriptedSequenceEvictsInDocumentedOrder() {
        let cache = makeCache(countLimit: 3)
        let keys = ["a", "b", "c", "d", "e", "f", "g", "h"]
        var evicted: [String] = []
        func step(_ action: () -> Void) {
            let before = Set(present(cache, keys))
            action()
            evicted += before.subtracting(present(cache, keys)).sorted()
        }
        for key in ["a", "b", "c"] { step { cache.setImage(makeImage(cost: 4), forKey: key) } }
        #expect(cache.image(forKey: "a") != nil)  // a marked
        step { cache.setImage(makeImage(cost: 4), forKey: "d") }  // a b c d: a to the back, b out -> c d a
        #expect(cache.image(forKey: "c") != nil)  // c marked
        step { cache.setImage(makeImage(cost: 4), forKey: "e") }  // c d a e: c to the back, d out -> a e c
        step { cache.setImage(makeImage(cost: 4), forKey: "f") }  // a e c f: a out -> e c f
        step { cache.setImage(makeImage(cost: 8), forKey: "e") }  // replace: keeps its place, marked
        step { cache.setImage(makeImage(cost: 4), forKey: "g") }  // e c f g: e to the back, c out -> f g e
        step { cache.setImage(makeImage(cost: 4), forKey: "h") }  // f g e h: f out -> g e h
        #expect(evicted == ["b", "d", "a", "c", "f"])
        #expect(present(cache, keys) == ["e", "g", "h"])
        let stats = cache.statistics
        #expect(stats.evictions == 5)
        #expect(stats.hits == 2)
        #expect(stats.count == 3)
        #expect(stats.totalCost == 16)
    }

    @Test func costLimitKeepsTheNewest() {
        let cache = makeCache(costLimit: 400, maxEntryCostRatio: 0.25)
        for index in 0..<5 { cache.setImage(makeImage(cost: 100), forKey: "k\(index)") }
        #expect(cache.totalCost == 400)
        #expect(present(cache, (0..<5).map { "k\($0)" }) == ["k1", "k2", "k3", "k4"])
        cache.setImage(makeImage(cost: 100), forKey: "k2")  // replace: cost unchanged
        #expect(cache.totalCost == 400)
        cache.setImage(makeImage(cost: 40), forKey: "k2")
        #expect(cache.totalCost == 340)
    }

    @Test func countLimitKeepsTheNewest() {
        let cache = makeCache(countLimit: 3)
        for index in 0..<6 { cache.setImage(makeImage(cost: 4), forKey: "k\(index)") }
        #expect(cache.count == 3)
        #expect(present(cache, (0..<6).map { "k\($0)" }) == ["k3", "k4", "k5"])
        #expect(cache.statistics.evictions == 3)
    }

    @Test func oversizedEntryIsRefusedAndReplacesNothing() {
        let cache = makeCache(costLimit: 1000)  // 10%: at most 100 bytes
        cache.setImage(makeImage(cost: 100), forKey: "fits")
        cache.setImage(makeImage(cost: 40), forKey: "x")
        cache.setImage(makeImage(cost: 104), forKey: "x")  // refused: "x" no longer holds the old image
        cache.setImage(makeImage(cost: 104), forKey: "big")
        #expect(present(cache, ["fits", "x", "big"]) == ["fits"])
        #expect(cache.totalCost == 100)
        #expect(cache.image(forKey: "x") == nil)
        #expect(cache.statistics.evictions == 0)
    }

    @Test func loweringLimitsEvictsAtOnce() {
        let cache = makeCache(costLimit: 1000)
        for index in 0..<10 { cache.setImage(makeImage(cost: 100), forKey: "k\(index)") }
        #expect(cache.totalCost == 1000)
        cache.costLimit = 500
        #expect(cache.costLimit == 500)
        #expect(cache.totalCost == 500)
        #expect(present(cache, (0..<10).map { "k\($0)" }) == ["k5", "k6", "k7", "k8", "k9"])
        cache.setImage(makeImage(cost: 52), forKey: "over")  // 10% of 500 is 50: refused now
        #expect(!cache.containsImage(forKey: "over"))
        cache.countLimit = 2
        #expect(present(cache, (0..<10).map { "k\($0)" }) == ["k8", "k9"])
        cache.costLimit = 2000
        cache.countLimit = .max
        for index in 10..<20 { cache.setImage(makeImage(cost: 100), forKey: "k\(index)") }
        #expect(cache.count == 12)
        #expect(cache.statistics.evictions == 8)
    }

    @Test func shardedLimitsHoldAcrossShards() throws {
        let cache = try MemoryCache(configuration: .init(costLimit: 8000, usesWeakTier: false))
        #expect(cache.shardCount == 8)  // 1 / 0.1 rounded down to a power of two
        for index in 0..<500 { cache.setImage(makeImage(cost: 4 * (1 + index % 25)), forKey: "k\(index)") }
        #expect(cache.totalCost <= 8000)
        #expect(cache.totalCost > 6000)
        cache.trim(toCost: 2000)
        #expect(cache.totalCost <= 2000)
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0)
        #expect(try MemoryCache(configuration: .init(countLimit: 100)).shardCount == 1)
        #expect(try MemoryCache(configuration: .init(shardCount: 5)).shardCount == 4)
    }
}

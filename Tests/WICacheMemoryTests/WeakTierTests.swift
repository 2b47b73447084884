import Testing
import WICore
import WICacheMemory

@Suite struct WeakTierTests {
    @Test func referencedImageComesBackDroppedOneIsGone() {
        let cache = makeCache(countLimit: 1, weak: true)
        let kept = makeImage(cost: 8)
        cache.setImage(kept, forKey: "kept")
        cache.setImage(makeImage(cost: 8), forKey: "dropped")  // evicts "kept" to the weak tier
        #expect(!cache.containsImage(forKey: "kept"))
        #expect(cache.image(forKey: "kept") === kept)  // found weakly, re-admitted; evicts "dropped"
        #expect(cache.containsImage(forKey: "kept"))
        #expect(cache.image(forKey: "dropped") == nil)  // nobody else held it: gone
        let stats = cache.statistics
        #expect(stats.hits == 1)
        #expect(stats.weakHits == 1)
        #expect(stats.misses == 1)
        #expect(stats.evictions == 2)
        #expect(stats.count == 1)
        #expect(stats.totalCost == 8)
    }

    @Test func explicitRemovalAndRemoveAllForgetWeakEntries() {
        let cache = makeCache(countLimit: 1, weak: true)
        let first = makeImage(cost: 4)
        let second = makeImage(cost: 4)
        cache.setImage(first, forKey: "first")
        cache.setImage(second, forKey: "second")
        cache.removeImage(forKey: "first")
        #expect(cache.image(forKey: "first") == nil)
        cache.setImage(first, forKey: "first")  // evicts "second" to the weak tier
        cache.removeAll()
        #expect(cache.image(forKey: "second") == nil)
        #expect(cache.image(forKey: "first") == nil)
    }

    @Test func weakTierOffForgetsEvictedImages() {
        let cache = makeCache(countLimit: 1, weak: false)
        let kept = makeImage(cost: 4)
        cache.setImage(kept, forKey: "kept")
        cache.setImage(makeImage(cost: 4), forKey: "other")
        #expect(cache.image(forKey: "kept") == nil)
        #expect(cache.statistics.weakHits == 0)
    }
}

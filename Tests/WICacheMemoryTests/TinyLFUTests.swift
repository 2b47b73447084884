import Testing
import WICore
@testable import WICacheMemory
import WITestSupport

@Suite struct TinyLFUTests {
    /// Ten keys used eight times each, then a one-pass scan of 300 cold keys through a 100-entry cache: CLOCK
    /// loses every hot key, W-TinyLFU keeps them all (a cold key, seen once, does not out-score a hot one; the
    /// scan is kept short enough that sketch collisions cannot lift a cold key's estimate that high).
    @Test func hotKeysSurviveAScan() {
        let hot = (0..<10).map { "hot\($0)" }
        for policy in [MemoryCache.EvictionPolicy.clock, .tinyLFU] {
            let cache = makeCache(policy: policy, countLimit: 100)
            for _ in 0..<8 {
                for key in hot where cache.image(forKey: key) == nil { cache.setImage(makeImage(cost: 4), forKey: key) }
            }
            for index in 0..<300 where cache.image(forKey: "cold\(index)") == nil {
                cache.setImage(makeImage(cost: 4), forKey: "cold\(index)")
            }
            #expect(cache.count == 100)
            #expect(present(cache, hot) == (policy == .tinyLFU ? hot : []), "\(policy)")
        }
    }

    /// The window's least recent entry duels the probation victim once the cache is full; ties keep the resident.
    @Test func frequentCandidateDisplacesVictim() {
        let cache = makeCache(policy: .tinyLFU, countLimit: 4)  // window 1 entry, main 3
        for key in ["a", "b", "c", "d"] { cache.setImage(makeImage(cost: 4), forKey: key) }
        #expect(cache.count == 4)  // probation a b c, window d
        for _ in 0..<3 { #expect(cache.image(forKey: "e") == nil) }  // "e" is wanted three times
        cache.setImage(makeImage(cost: 4), forKey: "e")
        // Candidate "d" (seen once) ties with victim "a" (seen once): "d" is evicted, "e" stays in the window.
        #expect(present(cache, ["a", "b", "c", "d", "e"]) == ["a", "b", "c", "e"])
        cache.setImage(makeImage(cost: 4), forKey: "f")
        // Candidate "e" (seen four times) beats victim "a": "a" is evicted, "e" joins probation.
        #expect(present(cache, ["a", "b", "c", "e", "f"]) == ["b", "c", "e", "f"])
        #expect(cache.statistics.evictions == 2)
    }

    /// A hit moves nothing but marks the entry: when the marked probation entry "a" reaches the front it is
    /// promoted to protected instead of being the victim, so the duels are fought by "b", the next unmarked one.
    @Test func hitGivesASecondChanceInsteadOfAMove() {
        let cache = makeCache(policy: .tinyLFU, countLimit: 4)  // window 1 entry, main 3
        for key in ["a", "b", "c", "d"] { cache.setImage(makeImage(cost: 4), forKey: key) }
        #expect(cache.image(forKey: "a") != nil)  // probation a* b c, window d
        for _ in 0..<3 { #expect(cache.image(forKey: "e") == nil) }
        cache.setImage(makeImage(cost: 4), forKey: "e")
        // "a" is promoted; candidate "d" ties with victim "b": "d" is evicted.
        #expect(present(cache, ["a", "b", "c", "d", "e"]) == ["a", "b", "c", "e"])
        cache.setImage(makeImage(cost: 4), forKey: "f")
        // Candidate "e" (seen four times) beats victim "b"; "a" is still there although it was inserted first.
        #expect(present(cache, ["a", "b", "c", "e", "f"]) == ["a", "c", "e", "f"])
        #expect(cache.statistics.evictions == 2)
        #expect(cache.statistics.hits == 1)
    }

    /// 500 keys counted 1 to 15 times each in a sketch sized for 1,024: no estimate is below the true count
    /// (a count-min sketch only overestimates, through collisions), and collisions are rare.
    @Test func sketchNeverUnderestimates() {
        var sketch = FrequencySketch(capacity: 1_024)
        var random = SeededRandom(seed: 3)
        let keys = (0..<500).map { _ in random.next() }
        for (position, key) in keys.enumerated() {
            for _ in 0..<(position % 15 + 1) { sketch.increment(key) }
        }
        var exact = 0
        for (position, key) in keys.enumerated() {
            let estimate = sketch.frequency(key)
            #expect(estimate >= position % 15 + 1)
            if estimate == position % 15 + 1 { exact += 1 }
        }
        #expect(exact == 499)  // deterministic: the sketch hashes with no secret of its own
    }

    @Test func sketchCountsWithDoorkeeperAndAges() {
        var sketch = FrequencySketch(capacity: 16)
        let key = CacheKey("only", secret: fixedKeySecret).hash
        #expect(sketch.frequency(key) == 0)
        sketch.increment(key)  // first sighting: doorkeeper only
        #expect(sketch.frequency(key) == 1)
        for _ in 0..<4 { sketch.increment(key) }
        #expect(sketch.frequency(key) == 5)
        for _ in 0..<20 { sketch.increment(key) }
        #expect(sketch.frequency(key) == 16)  // counters saturate at 15, plus the doorkeeper bit
        sketch.age()  // every 10 x width counted increments: halve, clear the doorkeeper
        #expect(sketch.frequency(key) == 7)
    }

    /// Increments wait in a buffer of sixteen: the counters read afterwards are exactly those of applying each
    /// increment at once, also across agings (a sketch sized for 16 ages every 160 counted increments).
    @Test func bufferedIncrementsCountLikeImmediateOnes() {
        var buffered = FrequencySketch(capacity: 16)
        var immediate = FrequencySketch(capacity: 16)
        var random = SeededRandom(seed: 11)
        let keys = (0..<40).map { _ in random.next() }
        var agings = 0
        var previous = -1
        for step in 0..<5_000 {
            let key = keys[Int(random.next() % UInt64(1 + step % keys.count))]  // skewed toward the first keys
            buffered.increment(key)
            immediate.increment(key)
            immediate.flush()
            if step % 97 == 0 {  // reads in between flush the buffered one early, at odd points of its buffer
                #expect(buffered.frequency(key) == immediate.frequency(key))
            }
            let total = keys.reduce(0) { $0 + immediate.frequency($1) }
            if total < previous { agings += 1 }
            previous = total
        }
        #expect(keys.map { buffered.frequency($0) } == keys.map { immediate.frequency($0) })
        #expect(agings > 10)
    }
}

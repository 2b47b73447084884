import Testing
import WICore
import WITestSupport
import WICacheMemory

@Suite struct TimeToLiveTests {
    private func makeTTLCache(_ clock: ManualClock, ttl: Duration?, weak: Bool = false) throws -> MemoryCache {
        try MemoryCache(
            configuration: .init(
                costLimit: 1 << 20, countLimit: 1, usesWeakTier: weak, timeToLive: ttl,
                shardCount: 1), clock: clock)
    }

    @Test func cacheWideAndPerEntryLifetimes() throws {
        let clock = ManualClock()
        let cache = try MemoryCache(
            configuration: .init(costLimit: 1 << 20, timeToLive: .seconds(10), shardCount: 1),
            clock: clock)
        cache.setImage(makeImage(cost: 4), forKey: "cache-ttl")
        cache.setImage(makeImage(cost: 4), forKey: "short", timeToLive: .seconds(2))
        cache.setImage(makeImage(cost: 4), forKey: "forever", timeToLive: nil)
        clock.advance(by: .milliseconds(1999))
        #expect(cache.image(forKey: "short") != nil)
        clock.advance(by: .milliseconds(1))
        #expect(cache.image(forKey: "short") == nil)  // expired exactly at its deadline
        clock.advance(by: .seconds(7))  // t = 9 s
        #expect(cache.image(forKey: "cache-ttl") != nil)
        clock.advance(by: .seconds(1))
        #expect(!cache.containsImage(forKey: "cache-ttl"))
        #expect(cache.count == 2)  // not dropped until looked up or swept
        cache.removeExpired()
        #expect(cache.count == 1)
        clock.advance(by: .seconds(100_000))
        #expect(cache.image(forKey: "forever") != nil)
        let stats = cache.statistics
        #expect(stats.expirations == 2)
        #expect(stats.hits == 3)
        #expect(stats.misses == 1)
    }

    @Test func expiredImageIsNotFoundThroughTheWeakTier() throws {
        let clock = ManualClock()
        let cache = try makeTTLCache(clock, ttl: .seconds(5), weak: true)
        let kept = makeImage(cost: 4)
        cache.setImage(kept, forKey: "kept")
        cache.setImage(makeImage(cost: 4), forKey: "other")  // "kept" goes weak, deadline kept
        clock.advance(by: .seconds(4))
        #expect(cache.image(forKey: "kept") === kept)  // within its lifetime: found again
        cache.setImage(makeImage(cost: 4), forKey: "other")
        clock.advance(by: .seconds(1))
        #expect(cache.image(forKey: "kept") == nil)  // same deadline as before: expired
    }

    @Test func replacingRenewsTheLifetime() throws {
        let clock = ManualClock()
        let cache = try makeTTLCache(clock, ttl: .seconds(5))
        cache.setImage(makeImage(cost: 4), forKey: "a")
        clock.advance(by: .seconds(4))
        cache.setImage(makeImage(cost: 4), forKey: "a")
        clock.advance(by: .seconds(4))
        #expect(cache.image(forKey: "a") != nil)
        clock.advance(by: .seconds(1))
        #expect(cache.image(forKey: "a") == nil)
    }
}

import Testing
import WICore
import WICacheMemory
import WITestSupport

@Suite struct ConcurrencyTests {
    /// 8 threads sharing 1M operations (70% get, 20% set, 10% remove) over 2,000 keys whose images the test keeps
    /// (so the weak tier re-admits often); CLOCK gets an eighth of that. Limits hold whenever a call has returned,
    /// and the counters add up.
    @Test(arguments: [(MemoryCache.EvictionPolicy.tinyLFU, 1_000_000), (.clock, 125_000)])
    func hammering(policy: MemoryCache.EvictionPolicy, operations: Int) async throws {
        let costLimit = 40_000
        let countLimit = 600
        let cache = try MemoryCache(
            configuration: .init(
                costLimit: costLimit, countLimit: countLimit,
                evictionPolicy: policy))
        let keys = (0..<2000).map { "https://example.com/images/\($0).png" }
        let images = (0..<2000).map { makeImage(cost: 4 * (1 + $0 % 50)) }
        let counts = await onThreads(8) { thread -> (gets: Int, violations: Int) in
            var random = SeededRandom(seed: UInt64(thread + 1))
            var gets = 0
            var violations = 0
            for operation in 0..<operations / 8 {
                let index = Int(random.next() % 2000)
                let roll = random.next() % 10
                if roll < 7 {
                    gets += 1
                    if let image = cache.image(forKey: keys[index]), image !== images[index] { violations += 1 }
                } else if roll < 9 {
                    cache.setImage(images[index], forKey: keys[index])
                } else {
                    cache.removeImage(forKey: keys[index])
                }
                if operation % 512 == 0, cache.totalCost > costLimit || cache.count > countLimit { violations += 1 }
            }
            return (gets, violations)
        }
        let gets = counts.reduce(0) { $0 + $1.gets }
        let violations = counts.reduce(0) { $0 + $1.violations }
        #expect(violations == 0)
        let stats = cache.statistics
        #expect(stats.hits + stats.misses == gets)
        let held = (0..<2000).filter { cache.containsImage(forKey: keys[$0]) }
        #expect(stats.count == held.count)
        #expect(stats.totalCost == held.reduce(0) { $0 + images[$1].cost })
        #expect(stats.totalCost <= costLimit && stats.count <= countLimit)
        #expect(stats.hits > 0 && stats.misses > 0 && stats.evictions > 0)
        #expect(stats.weakHits > 0)
    }
}

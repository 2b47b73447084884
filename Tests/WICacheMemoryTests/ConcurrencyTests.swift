import Testing
import WICore
import WICacheMemory
import WITestSupport

@Suite struct ConcurrencyTests {
    /// 8 tasks sharing 1M operations (70% get, 20% set, 10% remove) over 2,000 keys whose images the test keeps
    /// (so the weak tier re-admits often); CLOCK gets a quarter of that. Limits hold whenever a call has returned,
    /// and the counters add up.
    @Test(arguments: [(MemoryCache.EvictionPolicy.tinyLFU, 1_000_000), (.clock, 250_000)])
    func hammering(policy: MemoryCache.EvictionPolicy, operations: Int) async {
        let costLimit = 40_000, countLimit = 600
        let cache = MemoryCache(configuration: .init(costLimit: costLimit, countLimit: countLimit,
                                                     evictionPolicy: policy))
        let keys = (0..<2000).map { "https://example.com/images/\($0).png" }
        let images = (0..<2000).map { makeImage(cost: 4 * (1 + $0 % 50)) }
        let (gets, violations) = await withTaskGroup(of: (gets: Int, violations: Int).self) { group in
            for task in 0..<8 {
                group.addTask {
                    var random = SeededRandom(seed: UInt64(task + 1))
                    var localGets = 0, localViolations = 0
                    for operation in 0..<operations / 8 {
                        let index = Int(random.next() % 2000), roll = random.next() % 10
                        if roll < 7 {
                            localGets += 1
                            if let image = cache.image(forKey: keys[index]), image !== images[index] {
                                localViolations += 1
                            }
                        } else if roll < 9 {
                            cache.setImage(images[index], forKey: keys[index])
                        } else {
                            cache.removeImage(forKey: keys[index])
                        }
                        if operation % 512 == 0, cache.totalCost > costLimit || cache.count > countLimit {
                            localViolations += 1
                        }
                    }
                    return (localGets, localViolations)
                }
            }
            return await group.reduce((0, 0)) { ($0.0 + $1.gets, $0.1 + $1.violations) }
        }
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

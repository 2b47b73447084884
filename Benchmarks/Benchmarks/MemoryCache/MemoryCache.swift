// MemoryCache: hits, and the 80% read / 20% write mixed load over 10k keys, on MemoryCache (W-TinyLFU and CLOCK)
// and on Foundation's NSCache with the same keys, values and costs.
import Benchmark
import BenchSupport
import Foundation
import WebImage

/// NSCache is documented thread-safe but not Sendable in swift-corelibs-foundation.
struct SendableNSCache: @unchecked Sendable {
    let cache: NSCache<NSString, Image>
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(3),
        maxIterations: 100_000
    )
    let keys = CacheWorkloads.keys, values = CacheWorkloads.values
    // A single hit is far below the timer's resolution: 1,000 per measured iteration, reported per hit.
    let hits = Benchmark.Configuration(scalingFactor: .kilo)
    let operations = CacheWorkloads.mixedOperations(count: 100_000, seed: 1)
    for (name, policy) in [("W-TinyLFU", MemoryCache.EvictionPolicy.tinyLFU), ("CLOCK", .clock)] {
        Benchmark("MemoryCache \(name) hit", configuration: hits) { benchmark in
            let cache = try CacheWorkloads.filledMemoryCache(policy: policy)
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations { blackHole(cache.image(forKey: keys[i % keys.count])) }
        }
        Benchmark("MemoryCache \(name) 100k mixed ops") { benchmark in
            let cache = try CacheWorkloads.filledMemoryCache(policy: policy)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(CacheWorkloads.runMixed(operations, threads: 1,
                                                  read: { cache.image(forKey: keys[$0]) != nil },
                                                  write: { cache.setImage(values[$0], forKey: keys[$0]) }))
            }
        }
    }
    Benchmark("NSCache hit (String keys bridged)", configuration: hits) { benchmark in
        let cache = CacheWorkloads.filledNSCache(keys: keys.map { $0 as NSString })
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(cache.object(forKey: keys[i % keys.count] as NSString)) }
    }
    Benchmark("NSCache 100k mixed ops (String keys bridged)") { benchmark in
        let box = SendableNSCache(cache: CacheWorkloads.filledNSCache(keys: keys.map { $0 as NSString }))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(CacheWorkloads.runMixed(operations, threads: 1,
                                              read: { box.cache.object(forKey: keys[$0] as NSString) != nil },
                                              write: { box.cache.setObject(values[$0], forKey: keys[$0] as NSString,
                                                                           cost: values[$0].cost) }))
        }
    }
}

import Foundation
import Synchronization
import WebImage
import WITestSupport

/// Memory cache workloads: a mixed read/write load over 10k keys (MemoryCache against Foundation's NSCache with the
/// same keys, values and costs), hit latency, and hit ratios of the eviction policies on Zipf traces.
public enum CacheWorkloads {
    /// The number of distinct keys of the mixed load.
    public static let keyCount = 10_000

    /// The keys: URL-like strings, as an image cache sees them.
    public static let keys: [String] = (0..<keyCount).map { "https://example.com/images/\($0)/photo.jpg" }

    /// One 16x16 RGBA8 image per key (cost 1,024 bytes each); the same objects go into every cache.
    public static let values: [Image] = (0..<keyCount).map { _ in
        guard let pixels = try? PixelBuffer(width: 16, height: 16, format: .rgba8) else {
            fatalError("a 16x16 buffer is within every limit")
        }
        return Image(pixels: pixels)
    }

    /// A cost limit every key fits in with room to spare (the mixed load measures lookups and stores, not
    /// eviction): twice the total, because MemoryCache gives each shard an equal share and keys do not spread
    /// exactly evenly over the shards. NSCache gets the same limit.
    public static var costLimit: Int { 2 * values.reduce(0) { $0 + $1.cost } }

    /// One operation of the mixed load: a read or a write of key `index`.
    public struct Operation: Sendable {
        public let index: Int32
        public let isWrite: Bool
    }

    /// `count` operations, 80% reads and 20% writes, keys uniform over `keyCount`, from a fixed seed.
    public static func mixedOperations(count: Int, seed: UInt64) -> [Operation] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            let value = random.next()
            let index = Int32(truncatingIfNeeded: (value >> 8) % UInt64(keyCount))
            return Operation(index: index, isWrite: value & 0xFF < 51)  // 51 / 256: 20% writes
        }
    }

    /// A MemoryCache holding every key (weak tier off: every value is alive anyway, and NSCache has none).
    public static func filledMemoryCache(policy: MemoryCache.EvictionPolicy = .tinyLFU) throws(ImageError)
        -> MemoryCache
    {
        let cache = try MemoryCache(
            configuration: .init(costLimit: costLimit, evictionPolicy: policy, usesWeakTier: false))
        for (key, value) in zip(keys, values) { cache.setImage(value, forKey: key) }
        return cache
    }

    /// An NSCache holding every key with the same cost and total cost limit.
    public static func filledNSCache(keys: [NSString]) -> NSCache<NSString, Image> {
        let cache = NSCache<NSString, Image>()
        cache.totalCostLimit = costLimit
        for (key, value) in zip(keys, values) { cache.setObject(value, forKey: key, cost: value.cost) }
        return cache
    }

    /// Runs `operations` split over `threads` threads at once; returns the wall seconds and the number of reads
    /// that hit (checked by the caller: every key is present, so every read must hit).
    public static func runMixed(
        _ operations: [Operation], threads: Int,
        read: @Sendable (Int) -> Bool, write: @Sendable (Int) -> Void
    ) -> (Double, Int) {
        let hits = Mutex(0)
        let chunk = (operations.count + threads - 1) / threads
        let seconds = BenchClock.seconds {
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                var localHits = 0
                let start = min(operations.count, thread * chunk)
                let end = min(operations.count, start + chunk)
                let slice = operations[start..<end]
                for operation in slice {
                    if operation.isWrite {
                        write(Int(operation.index))
                    } else if read(Int(operation.index)) {
                        localHits += 1
                    }
                }
                hits.withLock { $0 += localHits }
            }
        }
        return (seconds, hits.withLock { $0 })
    }

    /// The median time of one hit: `batches` batches of `batchSize` lookups of present keys, each batch timed.
    public static func medianHitSeconds(
        batches: Int = 2_000, batchSize: Int = 500,
        lookup: (Int) -> Bool
    ) -> (seconds: Double, misses: Int) {
        var random = SeededRandom(seed: 7)
        let order = (0..<batches * batchSize).map { _ in Int(random.next() % UInt64(keyCount)) }
        var times: [Double] = []
        var misses = 0
        for b in 0..<batches {
            let batch = order[b * batchSize..<(b + 1) * batchSize]
            times.append(
                BenchClock.seconds {
                    for index in batch where !lookup(index) { misses += 1 }
                } / Double(batchSize))
        }
        times.sort()
        return (times[times.count / 2], misses)
    }
}

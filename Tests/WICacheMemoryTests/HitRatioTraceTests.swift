import Foundation
import Testing
import WICore
@testable import WICacheMemory
import WITestSupport

/// Hit ratios on two deterministic traces: Zipf(0.9) over 100,000 keys, and the same with a one-pass scan of
/// 50,000 cold keys mixed into its middle. Each access is a lookup, and a store on a miss. Exact LRU (a reference
/// simulation), CLOCK and W-TinyLFU run with the same 5,000-entry limit (the cache's default sharding).
@Suite struct HitRatioTraceTests {
    static let keyCount = 100_000, accessCount = 200_000, scanCount = 50_000, capacity = 5_000

    /// Key indices drawn from Zipf(0.9) by inverse CDF, from a fixed seed.
    static func zipfTrace(seed: UInt64) -> [Int] {
        var cdf = [Double](repeating: 0, count: keyCount)
        var sum = 0.0
        for rank in 0..<keyCount {
            sum += 1 / pow(Double(rank + 1), 0.9)
            cdf[rank] = sum
        }
        var random = SeededRandom(seed: seed)
        return (0..<accessCount).map { _ in
            let target = Double(random.next() >> 11) / Double(1 << 53) * sum
            var low = 0, high = keyCount - 1
            while low < high {
                let middle = (low + high) / 2
                if cdf[middle] < target { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// The Zipf trace with cold keys (indices from `keyCount` up, each used once) interleaved one for one into
    /// the middle 100,000 accesses.
    static func scanTrace(seed: UInt64) -> [Int] {
        let zipf = zipfTrace(seed: seed)
        let start = (accessCount - 2 * scanCount) / 2
        var trace = Array(zipf[..<start])
        for index in 0..<scanCount {
            trace.append(zipf[start + index])
            trace.append(keyCount + index)
        }
        trace += zipf[(start + scanCount)...]
        return trace
    }

    static func hitRatio(_ trace: [Int], policy: MemoryCache.EvictionPolicy) -> Double {
        let cache = MemoryCache(configuration: .init(costLimit: .max, countLimit: capacity, maxEntryCostRatio: 1,
                                                     evictionPolicy: policy, usesWeakTier: false))
        let image = makeImage(cost: 4)
        for key in trace {
            let name = String(key)
            if cache.image(forKey: name) == nil { cache.setImage(image, forKey: name) }
        }
        return cache.statistics.hitRatio
    }

    /// Exact LRU, for reference: one list, a hit moves the entry to the tail, the head is evicted.
    static func lruHitRatio(_ trace: [Int]) -> Double {
        var pool = NodePool()
        var index: [Int: Int32] = [:]
        var hits = 0
        let key = CacheKey("")
        for item in trace {
            if let node = index[item] {
                hits += 1
                pool.moveToTail(node, of: 0)
                continue
            }
            index[item] = pool.append(Node(key: key, image: nil, cost: item, deadline: .max), to: 0)
            if pool.lists[0].count > capacity {
                let evicted = pool.remove(pool.lists[0].head)
                index.removeValue(forKey: evicted.cost)
            }
        }
        return Double(hits) / Double(trace.count)
    }

    @Test func admissionWinsOnBothTraces() {
        var rows: [String] = []
        var results: [String: (lru: Double, clock: Double, tinyLFU: Double)] = [:]
        for (name, trace) in [("zipf-0.9", Self.zipfTrace(seed: 42)), ("zipf-0.9+scan", Self.scanTrace(seed: 42))] {
            let row = (lru: Self.lruHitRatio(trace), clock: Self.hitRatio(trace, policy: .clock),
                       tinyLFU: Self.hitRatio(trace, policy: .tinyLFU))
            results[name] = row
            rows.append(String(format: "%-14@ %6.2f%% %6.2f%% %6.2f%%", name as NSString, 100 * row.lru,
                               100 * row.clock, 100 * row.tinyLFU))
        }
        print("trace           LRU    CLOCK  W-TinyLFU  (\(Self.capacity) entries, \(Self.keyCount) keys)\n"
              + rows.joined(separator: "\n"))
        let zipf = results["zipf-0.9"]!, scan = results["zipf-0.9+scan"]!
        #expect(zipf.tinyLFU >= zipf.lru)
        #expect(zipf.tinyLFU >= zipf.clock)
        #expect(scan.tinyLFU >= scan.lru + 0.10)
        #expect(scan.tinyLFU >= scan.clock + 0.10)
    }
}

import Foundation
import Testing
import WICore
@testable import WICacheMemory
import WITestSupport

/// Hit ratios on two deterministic traces: Zipf(0.9) over 100,000 keys, and the same with a one-pass scan of
/// 50,000 cold keys mixed into it (one for one, through its middle). Every access is a lookup, and a store on a
/// miss. Exact LRU (a reference simulation), CLOCK and W-TinyLFU each get a 1,000-entry cache (1% of the keys,
/// default sharding), warmed by 100,000 Zipf accesses that are not counted, then measured over 200,000 Zipf
/// accesses (the trace scaled down to stay fast in debug builds).
@Suite struct HitRatioTraceTests {
    static let keyCount = 100_000, warmUpCount = 100_000, accessCount = 200_000, scanCount = 50_000
    static let capacity = 1_000

    /// Key indices drawn from Zipf(0.9) by inverse CDF, from a fixed seed.
    static func zipfTrace(count: Int, seed: UInt64) -> [Int] {
        var cdf = [Double](repeating: 0, count: keyCount)
        var sum = 0.0
        for rank in 0..<keyCount {
            sum += 1 / pow(Double(rank + 1), 0.9)
            cdf[rank] = sum
        }
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            let target = Double(random.next() >> 11) / Double(1 << 53) * sum
            var low = 0, high = keyCount - 1
            while low < high {
                let middle = (low + high) / 2
                if cdf[middle] < target { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// `zipf` with cold keys (indices from `keyCount` up, each used once) interleaved one for one into its middle.
    static func withScan(_ zipf: [Int]) -> [Int] {
        let start = (zipf.count - scanCount) / 2
        var trace = Array(zipf[..<start])
        for index in 0..<scanCount {
            trace.append(zipf[start + index])
            trace.append(keyCount + index)
        }
        trace += zipf[(start + scanCount)...]
        return trace
    }

    /// Hit ratios over the measured accesses: all of them, and only the Zipf ones (a scan key can never hit).
    struct Ratios {
        var hits = 0, accesses = 0, zipfHits = 0, zipfAccesses = 0

        mutating func record(_ key: Int, hit: Bool) {
            accesses += 1
            hits += hit ? 1 : 0
            guard key < keyCount else { return }
            zipfAccesses += 1
            zipfHits += hit ? 1 : 0
        }

        var all: Double { Double(hits) / Double(accesses) }
        var zipf: Double { Double(zipfHits) / Double(zipfAccesses) }
    }

    static func simulate(warmUp: [Int], trace: [Int], policy: MemoryCache.EvictionPolicy) -> Ratios {
        let cache = MemoryCache(configuration: .init(costLimit: .max, countLimit: capacity, evictionPolicy: policy,
                                                     usesWeakTier: false))
        let image = makeImage(cost: 4)
        func access(_ key: Int) -> Bool {
            let name = String(key)
            if cache.image(forKey: name) != nil { return true }
            cache.setImage(image, forKey: name)
            return false
        }
        for key in warmUp { _ = access(key) }
        var ratios = Ratios()
        for key in trace { ratios.record(key, hit: access(key)) }
        return ratios
    }

    /// Exact LRU, for reference: one list, a hit moves the entry to the tail, the head is evicted.
    static func simulateLRU(warmUp: [Int], trace: [Int]) -> Ratios {
        var pool = NodePool()
        var index: [Int: Int32] = [:]
        let placeholder = CacheKey("")
        func access(_ key: Int) -> Bool {
            if let node = index[key] {
                pool.moveToTail(node, of: 0)
                return true
            }
            index[key] = pool.append(Node(key: placeholder, image: nil, cost: key, deadline: .max), to: 0)
            if pool.lists[0].count > capacity {
                let head = pool.lists[0].head
                index.removeValue(forKey: pool[head].cost)
                _ = pool.remove(head)
            }
            return false
        }
        for key in warmUp { _ = access(key) }
        var ratios = Ratios()
        for key in trace { ratios.record(key, hit: access(key)) }
        return ratios
    }

    @Test func admissionWinsOnBothTraces() async {
        let results = await onThreads(1) { _ in Self.measure() }[0]
        let (zipfLRU, zipfClock, zipfTiny) = (results[0][0].all, results[0][1].all, results[0][2].all)
        #expect(zipfTiny >= zipfLRU + 0.05)        // never worse on pure Zipf (here: far better)
        #expect(zipfTiny >= zipfClock + 0.05)
        // On the scan trace, the Zipf accesses (the scan's own can never hit) gain at least 10 points.
        let (scanLRU, scanClock, scanTiny) = (results[1][0], results[1][1], results[1][2])
        #expect(scanTiny.zipf >= scanLRU.zipf + 0.10)
        #expect(scanTiny.zipf >= scanClock.zipf + 0.10)
        #expect(scanTiny.all >= scanClock.all + 0.08)
    }

    /// Runs the three policies on both traces, prints the table, returns [trace][LRU, CLOCK, W-TinyLFU].
    static func measure() -> [[Ratios]] {
        let zipf = zipfTrace(count: warmUpCount + accessCount, seed: 42)
        let warmUp = Array(zipf[..<warmUpCount]), measured = Array(zipf[warmUpCount...])
        var lines = ["trace            LRU     CLOCK   W-TinyLFU   (\(capacity) entries, \(keyCount) keys)"]
        func percent(_ value: Double) -> String { String(format: "%6.2f%%", 100 * value) }
        var results: [[Ratios]] = []
        for (name, trace) in [("zipf-0.9", measured), ("zipf-0.9+scan", withScan(measured))] {
            let row = [simulateLRU(warmUp: warmUp, trace: trace), simulate(warmUp: warmUp, trace: trace, policy: .clock),
                       simulate(warmUp: warmUp, trace: trace, policy: .tinyLFU)]
            results.append(row)
            lines.append(name.padding(toLength: 15, withPad: " ", startingAt: 0) + row.map { percent($0.all) }.joined(separator: " "))
            if trace.count > measured.count {
                lines.append("  (zipf part)  " + row.map { percent($0.zipf) }.joined(separator: " "))
            }
        }
        print(lines.joined(separator: "\n"))
        return results
    }
}

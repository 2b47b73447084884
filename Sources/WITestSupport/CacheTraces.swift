import Foundation

/// Deterministic access traces for cache hit-ratio measurements, shared by the WICacheMemory tests and the
/// benchmarks: Zipf-distributed keys, and the same with a one-pass scan of cold keys mixed in.
///
/// Thread safety: pure functions and a value type.
public enum CacheTraces {
    /// `count` key indices in `0..<keyCount` drawn from Zipf(`exponent`) by inverse CDF, from a fixed seed.
    public static func zipf(keyCount: Int, count: Int, exponent: Double = 0.9, seed: UInt64) -> [Int] {
        var cdf = [Double](repeating: 0, count: keyCount)
        var sum = 0.0
        for rank in 0..<keyCount {
            sum += 1 / pow(Double(rank + 1), exponent)
            cdf[rank] = sum
        }
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            let target = Double(random.next() >> 11) / Double(1 << 53) * sum
            var low = 0
            var high = keyCount - 1
            while low < high {
                let middle = (low + high) / 2
                if cdf[middle] < target { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// `trace` with `scanCount` cold keys (indices from `keyCount` up, each used once) interleaved one for one
    /// into its middle.
    public static func withScan(_ trace: [Int], keyCount: Int, scanCount: Int) -> [Int] {
        let start = (trace.count - scanCount) / 2
        var result = Array(trace[..<start])
        result.reserveCapacity(trace.count + scanCount)
        for index in 0..<scanCount {
            result.append(trace[start + index])
            result.append(keyCount + index)
        }
        result += trace[(start + scanCount)...]
        return result
    }

    /// Hit ratios over a trace: all accesses, and only those of keys below `keyCount` (a scan key never hits).
    public struct Ratios: Sendable {
        public let keyCount: Int
        public private(set) var hits = 0, accesses = 0, zipfHits = 0, zipfAccesses = 0

        public init(keyCount: Int) { self.keyCount = keyCount }

        /// Counts one access of `key`.
        public mutating func record(_ key: Int, hit: Bool) {
            accesses += 1
            hits += hit ? 1 : 0
            guard key < keyCount else { return }
            zipfAccesses += 1
            zipfHits += hit ? 1 : 0
        }

        /// The hit ratio over every access.
        public var all: Double { Double(hits) / Double(accesses) }
        /// The hit ratio over the accesses of keys below `keyCount`.
        public var zipf: Double { Double(zipfHits) / Double(zipfAccesses) }

        /// Runs `access` (which returns whether it hit) over `warmUp` uncounted, then over `trace` counted.
        public static func measure(keyCount: Int, warmUp: [Int], trace: [Int], access: (Int) -> Bool) -> Ratios {
            for key in warmUp { _ = access(key) }
            var ratios = Ratios(keyCount: keyCount)
            for key in trace { ratios.record(key, hit: access(key)) }
            return ratios
        }
    }
}

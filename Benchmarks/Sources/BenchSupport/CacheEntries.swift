import Foundation

/// Entries of the cache-tier workloads (Redis against disk), the same bytes in `wi-bench` and the Redis target.
public enum CacheEntries {
    /// The sizes compared: 4 KB, 100 KB and 1 MB, with their labels.
    public static let sizes: [(label: String, bytes: Int)] = [("4k", 4 << 10), ("100k", 100 << 10), ("1m", 1 << 20)]

    /// `size` deterministic bytes (different sizes give different contents).
    public static func bytes(_ size: Int) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ size) })
    }

    /// The keys of the 100-entry multi-get batch.
    public static let batchKeys = (0..<100).map { "https://example.com/redis-batch-\($0).jpg" }

    /// The key of the single entry of `size` bytes.
    public static func key(_ size: Int) -> String { "https://example.com/redis-\(size).jpg" }
}

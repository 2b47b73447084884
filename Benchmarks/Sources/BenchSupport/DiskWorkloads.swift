import Foundation
import WebImage

/// Disk cache workloads: a 20 KB entry read warm, 20 KB writes, and a directory of many small entries.
public enum DiskWorkloads {
    /// The key of the entry the warm-read workload reads.
    public static let readKey = "https://example.com/images/warm-entry.jpg"

    /// 20 KB of deterministic bytes.
    public static let entry20KB = Data((0..<20 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

    /// A cache on `directory` that never trims on its own (the benchmarks trim explicitly).
    public static func open(_ directory: String, sizeLimit: Int64 = 0) throws(ImageError) -> DiskCache {
        var configuration = DiskCache.Configuration()
        configuration.trimInterval = nil
        configuration.sizeLimit = sizeLimit
        configuration.maxAge = -1
        return try DiskCache(directory: directory, configuration: configuration)
    }

    /// Stores the warm-read entry and returns the path of its file (what the raw read reads).
    public static func prepareRead(_ directory: String) throws(ImageError) -> String {
        let cache = try open(directory)
        try cache.store(entry20KB, forKey: readKey)
        return cache.path(forKey: readKey)
    }

    /// Fills `directory` with `count` entries of `size` bytes, keys `entry-<i>.jpg`.
    public static func populate(_ directory: String, count: Int, size: Int = 100) throws(ImageError) {
        let cache = try open(directory)
        let bytes = Data(repeating: 0x5A, count: size)
        for i in 0..<count { try cache.store(bytes, forKey: "https://example.com/entry-\(i).jpg") }
    }

    /// The key of entry `i` of `populate`.
    public static func populatedKey(_ i: Int) -> String { "https://example.com/entry-\(i).jpg" }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

extension DiskCache {
    /// `readData(forKey:)` on the cache's I/O pool, off the cooperative thread pool.
    public func readData(forKey key: String) async throws(ImageError) -> Data? {
        try await ioPool.run { () throws(ImageError) in try self.readData(forKey: key) }
    }

    /// `store(_:forKey:)` on the cache's I/O pool.
    public func store(_ data: Data, forKey key: String) async throws(ImageError) {
        try await ioPool.run { () throws(ImageError) in try self.store(data, forKey: key) }
    }

    /// `remove(forKey:)` on the cache's I/O pool.
    public func remove(forKey key: String) async throws(ImageError) {
        try await ioPool.run { () throws(ImageError) in try self.remove(forKey: key) }
    }

    /// `containsData(forKey:)` on the cache's I/O pool.
    public func containsData(forKey key: String) async -> Bool {
        await ioPool.run { self.containsData(forKey: key) }
    }

    /// `removeAll()` on the cache's I/O pool.
    public func removeAll() async throws(ImageError) {
        try await ioPool.run { () throws(ImageError) in try self.removeAll() }
    }

    /// `removeExpired()` on the cache's I/O pool.
    @discardableResult
    public func removeExpired() async throws(ImageError) -> TrimResult {
        try await ioPool.run { () throws(ImageError) in try self.removeExpired() }
    }
}

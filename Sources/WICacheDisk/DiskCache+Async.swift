import Foundation
import WICore

extension DiskCache {
    /// `readData(forKey:)` on `WorkerPool.io`, off the cooperative thread pool.
    public func readData(forKey key: String) async throws(ImageError) -> Data? {
        try await WorkerPool.io.run { () throws(ImageError) in try self.readData(forKey: key) }
    }

    /// `store(_:forKey:)` on `WorkerPool.io`.
    public func store(_ data: Data, forKey key: String) async throws(ImageError) {
        try await WorkerPool.io.run { () throws(ImageError) in try self.store(data, forKey: key) }
    }

    /// `remove(forKey:)` on `WorkerPool.io`.
    public func remove(forKey key: String) async throws(ImageError) {
        try await WorkerPool.io.run { () throws(ImageError) in try self.remove(forKey: key) }
    }

    /// `containsData(forKey:)` on `WorkerPool.io`.
    public func containsData(forKey key: String) async -> Bool {
        await WorkerPool.io.run { self.containsData(forKey: key) }
    }

    /// `removeAll()` on `WorkerPool.io`.
    public func removeAll() async throws(ImageError) {
        try await WorkerPool.io.run { () throws(ImageError) in try self.removeAll() }
    }

    /// `removeExpired()` on `WorkerPool.io`.
    @discardableResult
    public func removeExpired() async throws(ImageError) -> TrimResult {
        try await WorkerPool.io.run { () throws(ImageError) in try self.removeExpired() }
    }
}

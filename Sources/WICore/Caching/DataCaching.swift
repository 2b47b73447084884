#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The data kind of cache: encoded image bytes by key, on disk or in a shared store (Redis).
///
/// Methods block (file or network I/O); `TieredImageCache` calls them on `BlockingIOPool`, never on the
/// cooperative thread pool. Failures are reported as misses or dropped writes, so a broken tier never fails a load.
///
/// Thread safety: implementations must be safe to call from any number of threads at once.
public protocol DataCaching: Sendable {
    /// The bytes stored under `key`, or nil (missing, expired, unreadable).
    func data(forKey key: String) -> Data?
    /// Stores `data` under `key`, replacing what was there; readers never see a partial write.
    func setData(_ data: Data, forKey key: String)
    /// Removes the bytes stored under `key`.
    func removeData(forKey key: String)
    /// Whether `key` is stored, without reading it.
    func containsData(forKey key: String) -> Bool
    /// Removes everything.
    func removeAllData()
    /// The tier's name in the `tier` dimension of `webimage_cache_lookups_total` ("disk", "redis"; by default the
    /// type's name, lowercased).
    var metricsName: String { get }
}

extension DataCaching {
    /// The type's name, lowercased.
    public var metricsName: String { "\(Self.self)".lowercased() }
}

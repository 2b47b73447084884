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

    /// The HTTP validators and freshness stored with `key`'s bytes, or nil (none stored; by default a tier keeps
    /// none, and its entries are then used as they are whatever the HTTP cache policy).
    func httpCacheInfo(forKey key: String) -> HTTPCacheInfo?
    /// Stores `data` under `key` with `httpCacheInfo` beside it (nil: none, dropping what the old entry had). By
    /// default `setData(_:forKey:)`.
    func setData(_ data: Data, httpCacheInfo: HTTPCacheInfo?, forKey key: String)
    /// Replaces the HTTP cache info of the entry under `key` without rewriting its bytes (a 304 renewed it); does
    /// nothing when there is no entry. By default nothing.
    func setHTTPCacheInfo(_ info: HTTPCacheInfo, forKey key: String)
}

extension DataCaching {
    /// The type's name, lowercased.
    public var metricsName: String { "\(Self.self)".lowercased() }
    /// None: this tier keeps no HTTP cache info.
    public func httpCacheInfo(forKey key: String) -> HTTPCacheInfo? { nil }
    /// `setData(_:forKey:)`: the info is not kept.
    public func setData(_ data: Data, httpCacheInfo: HTTPCacheInfo?, forKey key: String) { setData(data, forKey: key) }
    /// Nothing: the info is not kept.
    public func setHTTPCacheInfo(_ info: HTTPCacheInfo, forKey key: String) {}
}

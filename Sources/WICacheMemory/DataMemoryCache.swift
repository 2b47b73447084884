#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WICore

/// A data tier in memory: bytes under string keys, bounded by their total size, each entry with its
/// `HTTPCacheInfo`. Put it ahead of a disk or Redis tier wherever a `DataCaching` goes, for encoded answers,
/// thumbnails or any bytes an app serves again and again (`wi serve` keeps its encoded variants in one).
///
/// Eviction is least recently used first: a read (`data(forKey:)`) or a write makes an entry the most recent, and
/// once the bytes kept pass `byteLimit` the least recent entries go until they fit. An entry larger than an eighth
/// of `byteLimit` is not kept (storing one removes what the key held), so one large answer cannot push out many
/// small ones. `containsData(forKey:)` and `httpCacheInfo(forKey:)` do not count as use. Only the bytes count
/// toward the limit, not the keys or the bookkeeping.
///
/// ```swift
/// let memory = DataMemoryCache(byteLimit: 64 << 20)
/// memory.setData(encoded, httpCacheInfo: HTTPCacheInfo(etag: "\"v1\"", date: Date()), forKey: "300x200/a.jpg")
/// let hit = memory.data(forKey: "300x200/a.jpg")
/// print(memory.usage)   // (bytes: encoded.count, count: 1)
/// ```
///
/// Thread safety: the entries are under one `Mutex`; every method and property may be used from any number of
/// threads at once. When a call returns, `usage.bytes` is within `byteLimit`.
public final class DataMemoryCache: DataCaching, Sendable {
    private struct Entry {
        var data: Data
        var info: HTTPCacheInfo?
        var stamp: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Keys in the order of their last use, with stale stamps left behind (skipped when evicting).
        var order: [(stamp: UInt64, key: String)] = []
        var head = 0
        var clock: UInt64 = 0
        var bytes = 0

        /// A new stamp for `key`, appended to `order` (which is compacted when stale stamps outweigh live ones,
        /// so repeated hits keep it bounded: amortized constant time).
        mutating func touch(_ key: String) -> UInt64 {
            clock += 1
            order.append((clock, key))
            if order.count - head > 4 * (entries.count + 16) {
                order = order[head...].filter {
                    entries[$0.key]?.stamp == $0.stamp || $0.key == key && $0.stamp == clock
                }
                head = 0
            }
            return clock
        }

        /// Removes the least recently used entries until `bytes` is within `limit`.
        mutating func evict(to limit: Int) {
            while bytes > limit, head < order.count {
                let (stamp, key) = order[head]
                head += 1
                if let entry = entries[key], entry.stamp == stamp {
                    bytes -= entry.data.count
                    entries[key] = nil
                }
            }
        }
    }

    /// The most bytes kept (the sum of the entries' sizes).
    public let byteLimit: Int
    /// The tier's name in `webimage_cache_lookups_total`'s `tier` dimension.
    public let metricsName: String
    private let state = Mutex(State())

    /// An empty cache that keeps at most `byteLimit` bytes (a negative limit counts as 0), reporting its lookups
    /// as the tier `metricsName`.
    public init(byteLimit: Int, metricsName: String = "memory-data") {
        self.byteLimit = max(0, byteLimit)
        self.metricsName = metricsName
    }

    /// The bytes and the number of entries kept now.
    public var usage: (bytes: Int, count: Int) { state.withLock { ($0.bytes, $0.entries.count) } }

    /// The bytes under `key` (which become the most recently used), or nil.
    public func data(forKey key: String) -> Data? {
        state.withLock { s in
            guard s.entries[key] != nil else { return nil }
            let stamp = s.touch(key)
            s.entries[key]?.stamp = stamp
            return s.entries[key]?.data
        }
    }

    /// The info stored with `key`'s bytes, or nil (no entry, or none stored).
    public func httpCacheInfo(forKey key: String) -> HTTPCacheInfo? { state.withLock { $0.entries[key]?.info } }

    /// Stores `data` under `key` with no `HTTPCacheInfo`.
    public func setData(_ data: Data, forKey key: String) { setData(data, httpCacheInfo: nil, forKey: key) }

    /// Stores `data` and `httpCacheInfo` under `key` as the most recently used entry, then evicts the least
    /// recently used past `byteLimit`; when `data` is larger than an eighth of `byteLimit`, removes `key` instead.
    public func setData(_ data: Data, httpCacheInfo: HTTPCacheInfo?, forKey key: String) {
        guard data.count <= byteLimit / 8 else {
            removeData(forKey: key)
            return
        }
        state.withLock { s in
            s.bytes -= s.entries[key]?.data.count ?? 0
            let stamp = s.touch(key)
            s.entries[key] = Entry(data: data, info: httpCacheInfo, stamp: stamp)
            s.bytes += data.count
            s.evict(to: byteLimit)
        }
    }

    /// Replaces the info of `key`'s entry (a revalidation renewed it), keeping its bytes and recency; nothing when
    /// there is no entry.
    public func setHTTPCacheInfo(_ info: HTTPCacheInfo, forKey key: String) {
        state.withLock { s in if s.entries[key] != nil { s.entries[key]?.info = info } }
    }

    /// Removes `key`'s entry.
    public func removeData(forKey key: String) {
        state.withLock { s in
            if let entry = s.entries.removeValue(forKey: key) { s.bytes -= entry.data.count }
        }
    }

    /// Whether `key` has an entry (not counted as a use).
    public func containsData(forKey key: String) -> Bool { state.withLock { $0.entries[key] != nil } }

    /// Removes every entry.
    public func removeAllData() {
        state.withLock { $0 = State() }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WICore

/// The encoded answers of earlier requests (variants), so that a repeated request is answered from bytes without
/// loading, decoding, transforming or encoding, and a repeated `If-None-Match` gets its 304 from the ETag alone.
///
/// A variant's key is the path after the signature (signed and `unsafe/` URLs share it) and what picks the output
/// format besides the source: `format()`, or which of AVIF and WebP the Accept header allows when `--auto-avif` /
/// `--auto-webp` are on. The tiers are `DataCaching` instances, fastest first: `VariantMemoryCache` (bounded by
/// bytes) and a disk cache of its own (`variants` under the cache folder); each entry keeps its ETag beside the bytes
/// as `HTTPCacheInfo`, so a 304 from disk reads an extended attribute, not the file. Disk calls run on `io`.
///
/// Thread safety: immutable; the tiers are thread-safe.
final class VariantCache: Sendable {
    let tiers: [any DataCaching]
    private let io: WorkerPool

    init(tiers: [any DataCaching], io: WorkerPool) {
        self.tiers = tiers
        self.io = io
    }

    /// The variant key of a request.
    static func key(signedPath: String, requested: ImageFormat?, accept: String?, autoWebP: Bool, autoAVIF: Bool,
                    keepMetadata: Bool = false, keepCopyright: Bool = false) -> String
    {
        // v2: answers lost the source's EXIF and XMP by default; a v1 entry may still carry them.
        var key = keepMetadata ? "v2 meta " : keepCopyright ? "v2 copyright " : "v2 "
        if let requested {
            key += requested.identifier
        } else {
            key += "auto"
            if autoAVIF, OutputFormat.accepts("image/avif", in: accept) { key += "+avif" }
            if autoWebP, OutputFormat.accepts("image/webp", in: accept) { key += "+webp" }
        }
        return key + " " + signedPath
    }

    /// The stored variant's validators and freshness (its ETag, the source's Last-Modified, date and lifetime),
    /// from the first tier that has them.
    func info(forKey key: String) async -> HTTPCacheInfo? {
        for (index, tier) in tiers.enumerated() {
            let info = index == 0 ? tier.httpCacheInfo(forKey: key) : await io.run { tier.httpCacheInfo(forKey: key) }
            if let info, info.etag != nil { return info }
        }
        return nil
    }

    /// The stored variant and its info; a hit in a slower tier is copied into the faster ones.
    func variant(forKey key: String) async -> (data: Data, info: HTTPCacheInfo)? {
        for (index, tier) in tiers.enumerated() {
            let found: (Data, HTTPCacheInfo?)? = if index == 0 {
                tier.data(forKey: key).map { ($0, tier.httpCacheInfo(forKey: key)) }
            } else {
                await io.run { tier.data(forKey: key).map { ($0, tier.httpCacheInfo(forKey: key)) } }
            }
            guard let (data, stored) = found, let info = stored, info.etag != nil else { continue }
            for faster in tiers[..<index] { faster.setData(data, httpCacheInfo: info, forKey: key) }
            return (data, info)
        }
        return nil
    }

    /// Stores a variant with its info (`ImageService.variantInfo`) in every tier.
    func store(_ data: Data, info: HTTPCacheInfo, forKey key: String) async {
        guard let first = tiers.first else { return }
        first.setData(data, httpCacheInfo: info, forKey: key)
        let slower = tiers.dropFirst()
        if !slower.isEmpty { await io.run { for tier in slower { tier.setData(data, httpCacheInfo: info, forKey: key) } } }
    }
}

/// Encoded variants in memory, least recently used first out once their bytes pass `byteLimit`; an entry larger
/// than an eighth of the limit is not kept. Each entry keeps its `HTTPCacheInfo` (the ETag).
///
/// Thread safety: the state is in a `Mutex`; every method may be called from any thread.
final class VariantMemoryCache: DataCaching, Sendable {
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
                order = order[head...].filter { entries[$0.key]?.stamp == $0.stamp || $0.key == key && $0.stamp == clock }
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

    /// The most bytes kept.
    let byteLimit: Int
    private let state = Mutex(State())

    init(byteLimit: Int) {
        self.byteLimit = max(0, byteLimit)
    }

    /// Bytes and entries kept now.
    var usage: (bytes: Int, count: Int) { state.withLock { ($0.bytes, $0.entries.count) } }

    var metricsName: String { "variants" }

    func data(forKey key: String) -> Data? {
        state.withLock { s in
            guard s.entries[key] != nil else { return nil }
            let stamp = s.touch(key)
            s.entries[key]?.stamp = stamp
            return s.entries[key]?.data
        }
    }

    func httpCacheInfo(forKey key: String) -> HTTPCacheInfo? { state.withLock { $0.entries[key]?.info } }

    func setData(_ data: Data, forKey key: String) { setData(data, httpCacheInfo: nil, forKey: key) }

    func setData(_ data: Data, httpCacheInfo: HTTPCacheInfo?, forKey key: String) {
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

    func setHTTPCacheInfo(_ info: HTTPCacheInfo, forKey key: String) {
        state.withLock { s in if s.entries[key] != nil { s.entries[key]?.info = info } }
    }

    func removeData(forKey key: String) {
        state.withLock { s in
            if let entry = s.entries.removeValue(forKey: key) { s.bytes -= entry.data.count }
        }
    }

    func containsData(forKey key: String) -> Bool { state.withLock { $0.entries[key] != nil } }

    func removeAllData() {
        state.withLock { $0 = State() }
    }
}

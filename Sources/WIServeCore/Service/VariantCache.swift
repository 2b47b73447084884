#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// The encoded answers of earlier requests (variants), so that a repeated request is answered from bytes without
/// loading, decoding, transforming or encoding, and a repeated `If-None-Match` gets its 304 from the ETag alone.
///
/// A variant's key is the path after the signature (signed and `unsafe/` URLs share it) and what picks the output
/// format besides the source: `format()`, or which of AVIF and WebP the Accept header allows when `--auto-avif` /
/// `--auto-webp` are on. The tiers are `DataCaching` instances, fastest first: `DataMemoryCache` (bounded by
/// bytes) and a disk cache of its own (`variants` under the cache folder); each entry keeps its ETag beside the bytes
/// as `HTTPCacheInfo`, so a 304 from disk reads an extended attribute, not the file. Disk calls run on `io`.
///
/// Thread safety: immutable; the tiers are thread-safe.
package final class VariantCache: Sendable {
    let tiers: [any DataCaching]
    private let io: WorkerPool

    init(tiers: [any DataCaching], io: WorkerPool) {
        self.tiers = tiers
        self.io = io
    }

    /// The variant key of a request.
    static func key(
        signedPath: String, requested: ImageFormat?, accept: String?, negotiation: OutputFormat.Negotiation,
        keepMetadata: Bool = false, keepCopyright: Bool = false, qualities: String = ""
    ) -> String {
        // v2: answers lost the source's EXIF and XMP by default; a v1 entry may still carry them. v3: answers are
        // converted to sRGB; a v2 entry may hold the source's own colour space. v4: SVG sources are drawn into the
        // requested box (decision 0087); a v3 entry may hold the old crop or fit of their rendering.
        var key = keepMetadata ? "v4 meta " : keepCopyright ? "v4 copyright " : "v4 "
        if !qualities.isEmpty { key += qualities + " " }
        if let requested {
            key += requested.identifier
        } else {
            key += "auto" + negotiation.acceptKey(accept)
            if negotiation.pngToJPG { key += "+png2jpg" }
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
            let found: (Data, HTTPCacheInfo?)? =
                if index == 0 {
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
        if !slower.isEmpty {
            await io.run { for tier in slower { tier.setData(data, httpCacheInfo: info, forKey: key) } }
        }
    }
}

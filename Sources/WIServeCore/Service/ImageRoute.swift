#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImage

/// What an app's own image URL asks of the service (`/avatars/{id}/{size}.webp`): the source to load, what to do
/// to it, and how to encode the answer. The answer is cached as a variant under a key made of all of these, and
/// validated (ETag, 304) like a thumbor URL's.
///
/// ```swift
/// let route = ImageRoute(source: URL(string: "https://cdn.example.com/avatars/\(id).jpg")!,
///                        transformer: try .resize(width: 128, height: 128, mode: .fill), format: .webp)
/// ```
///
/// Thread safety: a value type; safe to send and share.
public struct ImageRoute: Sendable {
    /// The source image's URL (http, https; file URLs when the service reads files).
    public var source: URL
    /// What is done to the decoded image (its `key` joins the variant's key); nil: nothing.
    public var transformer: (any ImageTransformer)?
    /// The answer's format; nil: as a thumbor URL without `format()` (the source's, or what the configuration's
    /// auto conversions and the Accept header choose).
    public var format: ImageFormat?
    /// The encoder's quality, 1...100 (another value is a 400 answer).
    public var quality: Int
    /// A box the source may be decoded down to, when the transformer only shrinks it into that box (the
    /// coder's reduced decode, e.g. JPEG's DCT scaling); nil: full size. Each side at least 1, the area within the
    /// service's pixel limit (else a 400 answer).
    public var thumbnailSize: PixelSize?
    /// The answer's `Cache-Control: max-age`; nil: the configuration's.
    public var maxAge: Int?

    public init(
        source: URL, transformer: (any ImageTransformer)? = nil, format: ImageFormat? = nil, quality: Int = 80,
        thumbnailSize: PixelSize? = nil, maxAge: Int? = nil
    ) {
        self.source = source
        self.transformer = transformer
        self.format = format
        self.quality = quality
        self.thumbnailSize = thumbnailSize
        self.maxAge = maxAge
    }

    /// The variant key: the source, the transformer's key, the format (or what Accept allows), quality and box.
    func variantKey(accept: String?, configuration: ServeConfiguration) -> String {
        let negotiated = VariantCache.key(
            signedPath: source.absoluteString, requested: format, accept: accept,
            negotiation: configuration.negotiation,
            keepMetadata: configuration.keepMetadata,
            keepCopyright: configuration.keepCopyright)
        return
            "route q\(quality) \(thumbnailSize.map(\.description) ?? "full") \(transformer?.key ?? "-") \(negotiated)"
    }
}

/// An app's transformer with the service's progress flag: set when the transform starts, so a failure after it is
/// the transform's, not the source's (which is then not remembered as failed).
struct ProgressReportingTransformer: ImageTransformer {
    let wrapped: any ImageTransformer
    let progress: TransformProgress

    var key: String { wrapped.key }

    func transform(_ image: Image) throws(ImageError) -> Image {
        progress.started.store(true, ordering: .relaxed)
        return try wrapped.transform(image)
    }
}

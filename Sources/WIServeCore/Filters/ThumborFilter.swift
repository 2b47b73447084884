import WICore
import WITransform

/// One filter of a thumbor URL's `filters:` part: its name, how it reads thumbor's argument string, and what it
/// does to the answer (a pixel step, a part of the geometry, the encoding, or the answer's header fields).
///
/// A new filter is a type that conforms, in a file of its own under `Filters/`, and its line in
/// `ThumborFilters.all`; nothing else names it unless the geometry must consult it (`no_upscale`, `stretch`,
/// `focal` and `fill` are read by `ThumborGeometry`). Internal, not `package`: a filter's requirements are the
/// service's own types (`ServeError`, `EncodePlan`), and no other target registers filters.
///
/// Thread safety: conforming types are immutable values; safe to send and share.
protocol ThumborFilter: Hashable, Sendable, CustomStringConvertible {
    /// The name in URLs (`blur`).
    static var name: String { get }

    /// Reads the filter from its arguments. An argument it does not take is a one-line 400 naming it, which
    /// `--strict` answers and thumbor's lenient mode turns into the filter being skipped; where thumbor clamps a
    /// value instead (`blur(500)`), the filter clamps it when `arguments.strict` is false.
    init(_ arguments: ThumborFilterArguments) throws(ServeError)

    /// Where the filter acts (default `.pixels`).
    var role: ThumborFilterRole { get }

    /// The pixel step of a `.pixels` filter, or nil when it changes nothing (`blur(0)`, `rotate(0)`; the default).
    /// `watermarks` holds the loaded images of the request's `watermark()` and `frame()` filters by URL.
    func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)?

    /// Applies the filter to the image after the geometry, in URL order (default: `transformer`'s step).
    func apply(to image: Image, in context: inout ThumborFilterContext) throws(ImageError) -> Image

    /// Sets what the filter asks of the encoder (default: nothing).
    func plan(_ plan: inout EncodePlan)

    /// The working memory of the filter per pixel of a frame, beyond the frame in and out (default 8).
    var workingBytesPerPixel: Int { get }
}

/// A filter that takes no arguments (`grayscale()`): any argument is refused (thumbor's pattern is `name\(\)`).
protocol ThumborArgumentlessFilter: ThumborFilter {
    init()
}

extension ThumborArgumentlessFilter {
    init(_ arguments: ThumborFilterArguments) throws(ServeError) {
        try arguments.count(0...0)
        self.init()
    }
}

/// Where a thumbor filter acts.
enum ThumborFilterRole: Sendable {
    /// On the pixels, by itself: `transformer(watermarks:)` gives its step.
    case pixels
    /// On the pixels, through the geometry (the box, the fit, the focal point): `ThumborGeometry` reads it and
    /// `apply(to:in:)` runs it.
    case geometry
    /// On the encoding only (`EncodePlan`): quality, format, metadata, size.
    case encoding
    /// On the answer's header fields only.
    case answer

    /// Whether a filter of this role changes pixels (and so joins the transformer's key).
    var changesPixels: Bool { self == .pixels || self == .geometry }
}

extension ThumborFilter {
    var role: ThumborFilterRole { .pixels }

    func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? { nil }

    func apply(to image: Image, in context: inout ThumborFilterContext) throws(ImageError) -> Image {
        guard let step = try transformer(watermarks: context.watermarks) else { return image }
        return try step.transform(image)
    }

    func plan(_ plan: inout EncodePlan) {}

    var workingBytesPerPixel: Int { 8 }

    /// The step without loaded images (every filter but `watermark()` and `frame()`).
    func transformer() throws(ImageError) -> (any ImageTransformer)? { try transformer(watermarks: [:]) }

    /// Whether `other` is the same filter with the same arguments.
    func isEqual(to other: any ThumborFilter) -> Bool { (other as? Self) == self }
}

/// What a filter sees when it runs after the geometry: the request's box, whether `fill()` already made the
/// image the box, the loaded watermarks, and the output pixel limit.
///
/// Thread safety: a value owned by one transform.
struct ThumborFilterContext {
    /// `fit-in` (or a variant) was asked.
    let fitIn: Bool
    /// thumbor's requested size after the resize (`ThumborGeometry.box`; 0: a free side).
    let box: PixelSize
    /// The images of the request's `watermark()` and `frame()` filters, by URL.
    let watermarks: [String: Image]
    /// The output pixel limit (`--max-pixels`).
    let pixelLimit: Int
    /// Set by `fill()` once the image is the box (thumbor's order: `upscale()` after it does nothing).
    var filled = false

    /// Refuses an output of `size` past the pixel limit (1005).
    func checkLimit(_ size: PixelSize) throws(ImageError) { try Self.checkLimit(size, pixelLimit: pixelLimit) }

    /// Refuses an output of `size` past `pixelLimit` (1005).
    static func checkLimit(_ size: PixelSize, pixelLimit: Int) throws(ImageError) {
        let (area, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard !overflow, area <= pixelLimit else {
            throw ImageError(.pixelLimitExceeded, "the output \(size) exceeds the pixel limit of \(pixelLimit) pixels")
        }
    }

    /// `image` resized to `size` (the same image when it has that size), within the pixel limit.
    func resized(_ image: Image, to size: PixelSize) throws(ImageError) -> Image {
        guard size != image.size else { return image }
        try checkLimit(size)
        return try ResizeTransformer(width: size.width, height: size.height, mode: .fill).transform(image)
    }
}

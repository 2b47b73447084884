#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
import WICairo

/// SVG rasterizing on librsvg, drawn with cairo straight into the output buffer.
///
/// The output size: with a thumbnail box (`thumbnailPixelSize`), the box filled exactly, the document's aspect
/// fitted inside it (scaled up or down: a vector has no resolution to exceed) or stretched to it when
/// `preserveAspectRatio` is false; without one, the document's intrinsic size at `dpi` (CSS pixels as they are) times
/// `scaleFactor`, rounded up to whole pixels, and drawn at that scale (a fractional size is not stretched to the
/// rounded canvas: its last column or row is partly covered, as rsvg-convert draws it). `scaleDownLimitBytes` then
/// caps either (aspect kept). With `DecodeOptions.vectorViewport` the document is drawn into that box instead, as
/// cairosvg draws it for thumbor: both sides given, the canvas is the box and the document is placed in it as its
/// `preserveAspectRatio` says (fitted and centred with transparent bars by default); one side 0 follows the aspect.
/// A missing or relative width or height follows from the other and the viewBox's aspect
/// (or equals the other without a viewBox); a document with neither takes its viewBox's size (`viewBox='0 0 24 24'`
/// is 24x24 pixels, as in rsvg-convert, libvips and CoreSVG); one with no viewBox either is a square of
/// `defaultLongSide` pixels (times `scaleFactor`). Images carry `Image.Flags.vector`, and `.thumbnail` when a box or
/// byte limit chose the size. Straight alpha is cairo's premultiplied colour undone with rounding,
/// round(c * 255 / a), exactly as rsvg-convert writes its PNGs.
///
/// A gzip-compressed document (`.svgz`, or SVG whose `Content-Encoding: gzip` was lost) is inflated first, with
/// `maxDocumentBytes` as the limit of what it inflates to (`.documentTooLarge` past it, checked as it inflates).
///
/// No file or network access: the document is parsed from memory with no base file or URI, so librsvg resolves
/// no external reference (`<image href="file:...">`, `http:` hrefs, `<use>` of another file, CSS `@import`);
/// only `data:` URLs inside the document load. Documents over `maxDocumentBytes` are refused before parsing, and
/// the output size is checked against `DecodeOptions.pixelLimit` before the canvas is allocated.
///
/// ```swift
/// let coders = ImageCodersManager(coders: [SVGCoder()])
/// let icon = try coders.decode(svg, options: DecodeOptions(thumbnailPixelSize: .init(width: 64, height: 64)))
/// ```
///
/// Thread safety: an immutable value; decode from any number of threads at once (each call has its own librsvg
/// handle and cairo surface).
public struct SVGCoder: ImageCoder {
    /// The largest document parsed, in bytes (default 16 MiB).
    public var maxDocumentBytes: Int
    /// The side in pixels of a document with no width, height or viewBox (default 512): such a document has no
    /// size of its own (rsvg-convert measures the drawing's extents instead).
    public var defaultLongSide: Int

    /// The resolution of lengths in inches, centimetres, millimetres, points and picas (default 96, CSS's and
    /// rsvg-convert's; thumbor's SVG_DPI is 150). CSS pixels stay pixels.
    public let dpi: Double

    /// A coder with the given limits; values under 1 become 1, and a `dpi` outside 1...10000 (or not a number)
    /// becomes 96.
    public init(maxDocumentBytes: Int = 16 << 20, defaultLongSide: Int = 512, dpi: Double = 96) {
        self.maxDocumentBytes = max(1, maxDocumentBytes)
        self.defaultLongSide = max(1, defaultLongSide)
        self.dpi = (1...10_000).contains(dpi) ? dpi : 96
    }

    public var decodingFormats: [ImageFormat] { [.svg] }

    /// Whether the bytes start like an SVG document (`ImageFormat.detect`: an `<svg` root after an optional BOM,
    /// XML declaration, comments and doctype, plain or gzip-compressed).
    public func canDecode(_ data: Data) -> Bool { ImageFormat.detect(data) == .svg }

    public func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        guard data.count <= maxDocumentBytes else {
            throw ImageError(
                .documentTooLarge,
                "the SVG document is \(data.count) bytes, over the limit of \(maxDocumentBytes)")
        }
        let rendering = SVGRendering(coder: self, options: options)
        guard data.starts(with: [0x1F, 0x8B]) else { return try rendering.render(data) }
        return try rendering.render(Data(try inflated(data)))
    }

    /// A `.svgz` document inflated here, at most `maxDocumentBytes`, before librsvg sees it: librsvg would inflate
    /// it itself, with no limit (a few KiB of gzip can inflate to gigabytes).
    private func inflated(_ data: Data) throws(ImageError) -> [UInt8] {
        let result: Result<[UInt8], Gzip.Failure> = data.withUnsafeBytes { raw in
            Result { () throws(Gzip.Failure) in
                try Gzip.inflate(raw.bindMemory(to: UInt8.self), limit: maxDocumentBytes)
            }
        }
        switch result {
        case .success(let bytes): return bytes
        case .failure(.exceedsLimit(let limit)):
            throw ImageError(.documentTooLarge, "the gzip-compressed SVG document inflates to over \(limit) bytes")
        case .failure(.malformed(let reason)):
            throw ImageError(.badImageData, "gzip-compressed SVG: \(reason)")
        case .failure(.cancelled):
            throw ImageError(.cancelled, "the request was cancelled while its SVG document inflated")
        }
    }
}

extension ImageError.Code {
    /// A vector document is larger than its coder's byte limit (`SVGCoder.maxDocumentBytes`); refused unparsed.
    public static let documentTooLarge = ImageError.Code(rawValue: 1030)
}

extension SVGCoder: LibraryOpeningCoder {
    package func openLibraries() {
        RsvgLibrary.open()
        CairoLibrary.open()
    }
}

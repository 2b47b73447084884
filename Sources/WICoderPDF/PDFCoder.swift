#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
import WICairo

/// PDF page rasterizing on poppler-glib, drawn with cairo straight into the output buffer.
///
/// Renders one page, `page` (0-based; the first by default), on opaque white paper. The output size follows the
/// same rules as `SVGCoder`'s: a thumbnail box is filled exactly, the page's aspect fitted inside it (scaled up or
/// down) or stretched to it when `preserveAspectRatio` is false; without one, the page size at 72 dpi (one pixel
/// per point) times `scaleFactor`, rounded up; `scaleDownLimitBytes` then caps either. The page's /Rotate is
/// applied. Images carry `Image.Flags.vector`, and `.thumbnail` when a box or byte limit chose the size.
///
/// The document is read from memory only (poppler opens no file; links, attachments and external streams are not
/// followed). Encrypted documents open with `password`; without the right one the decode fails with
/// `.passwordRequired`. The output size is checked against `DecodeOptions.pixelLimit` before allocating.
/// To render another page for one request, put a coder for it in the context:
///
/// ```swift
/// context[.imageCoder] = PDFCoder(page: 2)
/// ```
///
/// Thread safety: an immutable value; decode from any number of threads at once (each call opens its own poppler
/// document and cairo surface).
public struct PDFCoder: ImageCoder {
    /// The page to render, 0-based.
    public var page: Int
    /// The password of an encrypted document (user or owner password), if any.
    public var password: String?

    /// A coder for `page` (0-based; negative values become 0) of documents opened with `password`.
    public init(page: Int = 0, password: String? = nil) {
        self.page = max(0, page)
        self.password = password
    }

    public var decodingFormats: [ImageFormat] { [.pdf] }

    /// Whether the bytes start with `%PDF-`.
    public func canDecode(_ data: Data) -> Bool { ImageFormat.detect(data) == .pdf }

    public func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        guard ImageFormat.detect(data) == .pdf else {
            throw ImageError(.unsupportedFormat, "PDFCoder decodes PDF, not \(ImageFormat.detect(data))")
        }
        return try PDFRendering(coder: self, options: options).render(data)
    }
}

extension ImageError.Code {
    /// The document is encrypted and no password, or a wrong one, was given (`PDFCoder.password`).
    public static let passwordRequired = ImageError.Code(rawValue: 1031)
}

extension PDFCoder: LibraryOpeningCoder {
    package func openLibraries() {
        PopplerLibrary.open()
        CairoLibrary.open()
    }
}

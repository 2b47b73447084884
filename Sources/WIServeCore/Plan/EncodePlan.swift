#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// What the URL asks of the encoder, and the decode box that lets coders decode smaller: `quality()`,
/// `format()`, `fill()` (the background of formats without alpha), `strip_exif()`, `strip_icc()`, `max_bytes()`.
struct EncodePlan: Sendable {
    var format: ImageFormat?
    /// The URL's `quality()` (an app route's quality); nil: the server's default for the format.
    var quality: Int?
    /// The server's defaults (`--quality`, `--webp-quality`, `--avif-quality`: thumbor's QUALITY, WEBP_QUALITY and
    /// AVIF_QUALITY; 80 for every format unless set).
    var defaultQuality = 80
    var defaultWebPQuality: Int?
    var defaultAVIFQuality: Int?
    var background: RGBAColor?
    var stripEXIF = false
    var stripICC = false
    /// `max_bytes(N)`: JPEG and WebP answers re-encoded at lower qualities until they fit N bytes.
    var maxBytes: Int?
    /// A box the source may be decoded down to (the coder's own reduced decode, e.g. JPEG's DCT scaling): only
    /// for a plain `fit-in` with both sides given (no crop, no smart, no `orig`, not `full-` or `adaptive-`), where
    /// the fit of the reduced image equals the fit of the original.
    var decodeBox: PixelSize?
    /// The box an SVG source is drawn into (`DecodeOptions.vectorViewport`), as thumbor hands the request's width
    /// and height to cairosvg; raster sources ignore it.
    var vectorViewport: PixelSize?

    /// The plan of an app's route: a format (nil: negotiated), a quality, a decode box.
    init(format: ImageFormat?, quality: Int, decodeBox: PixelSize?) {
        self.format = format
        self.quality = quality
        self.decodeBox = decodeBox
    }

    init(request: ThumborRequest, configuration: ServeConfiguration) throws(ServeError) {
        defaultQuality = configuration.quality
        defaultWebPQuality = configuration.webpQuality
        defaultAVIFQuality = configuration.avifQuality
        for filter in request.filters { filter.plan(&self) }
        vectorViewport = Self.vectorViewport(of: request, configuration: configuration)
        if case .pixels(let width) = request.width, case .pixels(let height) = request.height {
            let (area, overflow) = width.multipliedReportingOverflow(by: height)
            guard !overflow, area <= configuration.maxPixels else {
                throw ServeError(
                    .badRequest, "\(width)x\(height) exceeds the pixel limit of \(configuration.maxPixels)")
            }
            let rotated = request.filters.contains(ThumborFilters.Rotate.self)
            if request.fitIn, !request.fullFitIn, !request.adaptiveFitIn, request.crop == nil, !request.smart, !rotated,
                width > 0, height > 0
            {
                decodeBox = PixelSize(width: width, height: height)
            }
        }
    }

    /// The viewport thumbor draws an SVG source into: its engine hands the request's width and height, after
    /// MAX_WIDTH and MAX_HEIGHT, to cairosvg before anything else happens, so the transform then works on that
    /// rendering (with both sides, a letterboxed box of the requested size, whatever `fit-in`, crop or `smart`).
    /// Nil for 0x0 (the document's own size) and for `orig` (thumbor's cairosvg call fails on it with a 500; the
    /// document's own size is drawn here, decision 0087). Sides past `ImageCoding.Geometry.maximumSide` are capped
    /// there: such a rendering is refused by the pixel limit anyway.
    static func vectorViewport(of request: ThumborRequest, configuration: ServeConfiguration) -> PixelSize? {
        guard case .pixels(var width) = request.width, case .pixels(var height) = request.height,
            width > 0 || height > 0
        else { return nil }
        if configuration.maxWidth > 0 { width = min(width, configuration.maxWidth) }
        if configuration.maxHeight > 0 { height = min(height, configuration.maxHeight) }
        let side = ImageCoding.Geometry.maximumSide
        return PixelSize(width: min(max(width, 0), side), height: min(max(height, 0), side))
    }

    /// The metadata an answer carries: none of the source's EXIF or XMP unless `--keep-metadata` (Artist and
    /// Copyright alone with `--keep-copyright`), none at all after `strip_exif()`, no colour profile after
    /// `strip_icc()`.
    func metadata(of image: Image, configuration: ServeConfiguration) -> ImageMetadata {
        var metadata = image.metadata
        if stripEXIF {
            metadata = metadata.removingPersonalData()
        } else if !configuration.keepMetadata {
            metadata = metadata.removingPersonalData(keepingCopyright: configuration.keepCopyright)
        }
        if stripICC { metadata.iccProfile = nil }
        return metadata
    }

    /// The quality `format` is encoded at, as thumbor's handler picks it: the URL's, else WEBP_QUALITY for WebP and
    /// AVIF_QUALITY for AVIF when set, else QUALITY.
    func quality(for format: ImageFormat) -> Int {
        if let quality { return quality }
        if format == .webp, let defaultWebPQuality { return defaultWebPQuality }
        if format == .avif, let defaultAVIFQuality { return defaultAVIFQuality }
        return defaultQuality
    }

    /// The encode options for `format`: quality 0...1 (`quality`, else the plan's), the background, one frame for
    /// formats that cannot animate.
    func encodeOptions(for format: ImageFormat, animated: Bool, quality: Int? = nil) -> EncodeOptions {
        let animates: Set<ImageFormat> = [.gif, .webp, .png]
        return EncodeOptions(
            quality: Double(quality ?? self.quality(for: format)) / 100, backgroundColor: background,
            firstFrameOnly: animated && !animates.contains(format))
    }

    /// The answer's bytes: `encode` at the plan's quality, and under `max_bytes(N)` for JPEG and WebP, as thumbor
    /// fits it: the quality times 0.75 (truncated) until the bytes fit, or the first encoding when the quality would
    /// fall under 10.
    func encodeFitting(_ format: ImageFormat, _ encode: (Int) throws(ImageError) -> Data) throws(ImageError) -> Data {
        let start = quality(for: format)
        let first = try encode(start)
        guard let maxBytes, format == .jpeg || format == .webp, first.count > maxBytes else { return first }
        var step = start
        while true {
            step = Int(Double(step) * 0.75)
            guard step >= 10 else { return first }
            let smaller = try encode(step)
            if smaller.count <= maxBytes { return smaller }
        }
    }
}

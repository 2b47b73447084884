#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// Decodes and encodes JPEG with libjpeg-turbo.
///
/// Decodes baseline and progressive files, greyscale, YCbCr at any subsampling, RGB, CMYK and YCCK (converted like
/// Pillow does, Adobe-inverted), arithmetic-coded files and restart markers, straight into RGBA8. Thumbnails use
/// libjpeg's DCT scaling (the smallest M/8 that is still at least the target) before the remaining resample, so a
/// 6000x4000 photo decoded to 256 px never has a full-size bitmap. EXIF orientation is applied by default; EXIF,
/// XMP and the ICC profile are kept as metadata. A truncated file decodes to a padded image flagged `.incomplete`.
/// 12-bit and lossless (SOF3) files are refused with `.badImageData` (libjpeg-turbo 2.1 decodes 8-bit DCT only).
///
/// Incremental decoding shows rows as they arrive (baseline) or the image after each completed scan (progressive).
/// Arithmetic-coded files show nothing before the end: libjpeg's arithmetic decoder cannot suspend.
///
/// Encodes the first frame as 8-bit YCbCr (`EncodeOptions.lossless` does not apply: JPEG here is always lossy),
/// compositing alpha onto `backgroundColor` (white by default), with the EXIF block whose orientation tag says what
/// the pixels still need (1 for upright pixels), and the ICC profile. `maxFileSize` binary-searches the quality.
///
/// ```swift
/// let coders = ImageCodersManager(coders: [PNGCoder(), JPEGCoder()])
/// let data = try JPEGCoder(progressive: true).encode(image, as: .jpeg, options: .init(quality: 0.8))
/// ```
///
/// Thread safety: a value type with no shared state; decode and encode from any number of threads at once.
public struct JPEGCoder: ProgressiveImageCoder {
    /// How encoded chroma is sampled.
    public enum ChromaSubsampling: Hashable, Sendable {
        /// Chroma at half resolution both ways (smaller files; libjpeg's default).
        case yuv420
        /// Chroma at full resolution (sharper colour edges).
        case yuv444
    }

    /// Encode progressive files (libjpeg's standard scan script).
    public var progressive: Bool
    /// The chroma sampling of encoded files.
    public var chromaSubsampling: ChromaSubsampling
    /// Encode with Huffman tables optimized for the image (smaller files, a little slower).
    public var optimizeHuffman: Bool

    public init(progressive: Bool = false, chromaSubsampling: ChromaSubsampling = .yuv420, optimizeHuffman: Bool = true)
    {
        self.progressive = progressive
        self.chromaSubsampling = chromaSubsampling
        self.optimizeHuffman = optimizeHuffman
    }

    public var decodingFormats: [ImageFormat] { [.jpeg] }

    public func canDecode(_ data: Data) -> Bool { ImageFormat.detect(data.prefix(16)) == .jpeg }

    public func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        try decodeReportingScale(data, options: options).image
    }

    /// Decodes `data` and reports the size libjpeg decoded to (the DCT-scaled size, before any resampling): the
    /// size of the only full bitmap the decode allocated. For tests of the reduced decode.
    package func decodeReportingScale(_ data: Data, options: DecodeOptions) throws(ImageError)
        -> (image: Image, decodedSize: PixelSize)
    {
        let handle = try JPEGDecoderHandle(options: options)
        try handle.decodeAll(data)
        let image = try handle.finalImage()
        // finalImage() succeeds only once libjpeg has started, which sets decodedSize.
        return (image, handle.decodedSize ?? image.size)
    }

    public func makeIncrementalDecoder(header: Data, options: DecodeOptions) -> (any IncrementalImageDecoder)? {
        guard canDecode(header) else { return nil }
        return try? JPEGIncrementalDecoder(options: options)
    }

    public func canEncode(to format: ImageFormat) -> Bool { format == .jpeg }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        guard format == .jpeg else { throw ImageError(.unsupportedFormat, "JPEGCoder encodes JPEG, not \(format)") }
        return try JPEGEncoder(coder: self, options: options).encode(image)
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// WebP decoding and encoding on libwebp (with libwebpdemux and libwebpmux).
///
/// Decodes lossy, lossless, alpha and extended (VP8X) files straight into the output buffer, scaling with
/// libwebp's own scaler for thumbnails; keeps ICC, EXIF and XMP chunks as metadata and applies the EXIF
/// orientation; decodes animations with their blending and disposal, loop count and durations; decodes stills
/// incrementally as their bytes arrive; hands out animation frames on demand. Encodes lossy or lossless stills and
/// animations, with metadata. Knobs beyond `EncodeOptions` live in `Configuration`.
///
/// ```swift
/// let coders = ImageCodersManager(coders: [WebPCoder()])
/// let image = try coders.decode(data, options: DecodeOptions(thumbnailPixelSize: .init(width: 256, height: 256)))
/// let file = try WebPCoder(configuration: .init(method: 6)).encode(image, as: .webp, options: .init(quality: 0.8))
/// ```
///
/// Thread safety: a value type without shared state; decode and encode from any number of threads at once.
public struct WebPCoder: ProgressiveImageCoder, AnimatedImageCoder {
    /// The encoder settings this coder uses.
    public var configuration: Configuration

    /// A coder that encodes with `configuration` (decoding takes no settings beyond `DecodeOptions`).
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    public var decodingFormats: [ImageFormat] { [.webp] }

    public func canDecode(_ data: Data) -> Bool { ImageFormat.detect(data.prefix(16)) == .webp }

    /// Decodes a still or every frame of an animation (or the first only). Errors: `.badImageData` with libwebp's
    /// reason (malformed or truncated), `.pixelLimitExceeded` (canvas x frames, checked before allocating),
    /// `.outOfMemory`.
    public func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        guard canDecode(data) else { throw ImageError(.badImageData, "WebP: not a RIFF WEBP file") }
        let container = try WebPContainer(data)
        if container.isAnimated {
            return try WebPAnimatedDecoder(container, options: options).makeImage()
        }
        return try WebPStillDecoder.decode(container, options: options)
    }

    /// An incremental decoder for a still WebP; nil for animations (their frames need the whole file) and for
    /// data that is not WebP.
    public func makeIncrementalDecoder(header: Data, options: DecodeOptions) -> (any IncrementalImageDecoder)? {
        guard canDecode(header), (Self.vp8xFlags(header) ?? 0) & 0x02 == 0 else { return nil }
        return WebPIncrementalDecoder(coder: self, options: options)
    }

    /// Frames on demand, composited, finished as `options` ask; stills give one frame.
    ///
    /// libwebp decodes forwards only: playing frames in order decodes each once, asking for the same frame again is
    /// free (the last frame is kept), and asking for an earlier frame replays the animation from frame 0.
    /// `scaleDownLimitBytes` is shared among the frames, as in `decode`. Safe to use from several threads (calls are
    /// serialized).
    public func makeAnimatedDecoder(_ data: Data, options: DecodeOptions) throws(ImageError) -> any AnimatedImageDecoder
    {
        guard canDecode(data) else { throw ImageError(.unsupportedFormat, "WebP: not a RIFF WEBP file") }
        return try WebPAnimatedDecoder(WebPContainer(data), options: options)
    }

    /// The VP8X header's flags (byte 20: 0x02 animation, 0x04 XMP, 0x08 EXIF, 0x10 alpha, 0x20 ICC), nil when the
    /// first chunk is not VP8X or has not arrived.
    static func vp8xFlags(_ header: Data) -> UInt8? {
        let bytes = [UInt8](header.prefix(21))
        return bytes.count == 21 && bytes[12..<16].elementsEqual("VP8X".utf8) ? bytes[20] : nil
    }
}

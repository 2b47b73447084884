#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
import WICoderSupport

/// GIF decoding and encoding on giflib: animations composited as browsers show them, incremental decoding frame
/// by frame, lazy frame production, and encoding with a palette per frame.
///
/// ```swift
/// let coders = ImageCodersManager(coders: [GIFCoder()])
/// let image = try coders.decode(gifData, options: .init())
/// print(image.frameCount, image.loopCount, image.durations)
/// ```
///
/// Decoding follows browsers: transparent canvas, frames clipped to the logical screen, disposal 2
/// clears to transparent, delays under 11 ms show 100 ms, no NETSCAPE2.0 extension plays once (loop count 1),
/// NETSCAPE value N > 0 plays N + 1 times. A truncated file gives the frames whose records are complete (or the
/// first frame as far as it arrived), flagged `.incomplete`; a frame whose LZW data runs short shows the rows that
/// decoded, the rest transparent (the canvas under it), as browsers show it. width x height x frames is checked against
/// the pixel limit from a scan of the block structure, before any pixel is decoded.
///
/// `makeAnimatedDecoder` produces frames on demand (a few keyframes kept, not every frame); the incremental
/// decoder's partial image is the latest complete frame, or the first frame as far as its rows arrived.
/// Encoding writes a local palette per frame (exact up to 255 colours, else giflib's median-cut quantizer),
/// only each frame's changed rectangle, alpha under 128 as transparent, durations in 1/100 s and the loop count.
///
/// Thread safety: stateless; decode and encode from any number of threads at once.
public struct GIFCoder: ProgressiveImageCoder, AnimatedImageCoder {
    public init() {}

    public var decodingFormats: [ImageFormat] { [.gif] }

    public func canDecode(_ data: Data) -> Bool { ImageFormat.detect(data.prefix(16)) == .gif }

    public func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        let (animation, decoder) = try prepare(data, options: options)
        let image = try decoder.image(format: .gif)
        // Damage shows up while frames decode (a frame cut short), so the flag is read afterwards.
        return animation.isDamaged ? image.with(flags: image.flags.union(.incomplete)) : image
    }

    public func makeAnimatedDecoder(_ data: Data, options: DecodeOptions) throws(ImageError) -> any AnimatedImageDecoder
    {
        try prepare(data, options: options).decoder
    }

    public func makeIncrementalDecoder(header: Data, options: DecodeOptions) -> (any IncrementalImageDecoder)? {
        canDecode(header) ? GIFIncrementalDecoder(options: options) : nil
    }

    /// Reads the structure, checks the pixel limit for the frames that will be decoded, and sets up the decoder.
    func prepare(_ data: Data, options: DecodeOptions) throws(ImageError) -> (
        animation: GIFAnimation, decoder: ImageCoding.CompositedAnimationDecoder
    ) {
        var structure = GIFStructure()
        try structure.advance(data)
        let animation = try GIFAnimation(data: data, structure: structure)
        try options.checkFrameLimit(animation.infos.count)
        let count = options.firstFrameOnly ? 1 : animation.infos.count
        try options.checkPixelLimit(
            animation.canvas,
            frames: options.pixelLimitFrameCount(frameCount: count, canvas: animation.canvas))
        // A frame is decoded row by row at its full width, however much of it the screen clips.
        for frame in animation.frames.prefix(count) {
            try options.checkPixelLimit(PixelSize(width: frame.width, height: frame.height))
        }
        let decoder = try ImageCoding.CompositedAnimationDecoder(
            canvasSize: animation.canvas, frames: animation.infos,
            loopCount: animation.loopCount, source: animation, options: options)
        return (animation, decoder)
    }

    public func canEncode(to format: ImageFormat) -> Bool { format == .gif }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        guard format == .gif else { throw ImageError(.unsupportedFormat, "GIFCoder encodes GIF, not \(format)") }
        return try GIFEncoder.encode(image, options: options)
    }
}

import Foundation
import WICore

/// GIF decoding and encoding on giflib: animations composited as browsers show them, incremental decoding frame
/// by frame, lazy frame production, and encoding with a palette per frame.
///
/// ```swift
/// let coders = ImageCodersManager(coders: [GIFCoder()])
/// let image = try coders.decode(gifData, options: .init())
/// print(image.frames.count, image.loopCount, image.frames.map(\.duration))
/// ```
///
/// Decoding follows browsers (see `docs`): transparent canvas, frames clipped to the logical screen, disposal 2
/// clears to transparent, delays under 11 ms show 100 ms, no NETSCAPE2.0 extension plays once (loop count 1),
/// NETSCAPE value N > 0 plays N + 1 times. A truncated or damaged file gives the frames that decoded completely
/// (or the first frame as far as it decoded), flagged `.incomplete`. width x height x frames is checked against
/// the pixel limit from a scan of the block structure, before any pixel is decoded.
///
/// Thread safety: stateless; decode and encode from any number of threads at once.
public struct GIFCoder: ProgressiveImageCoder, AnimatedImageCoder {
    public init() {}

    public var decodingFormats: [ImageFormat] { [.gif] }

    public func canDecode(_ data: Data) -> Bool { ImageFormat.detect(data.prefix(16)) == .gif }

    public func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        let (animation, decoder) = try prepare(data, options: options)
        return try decoder.image(format: .gif, flags: animation.isDamaged ? .incomplete : [], then: animation)
    }

    public func makeAnimatedDecoder(_ data: Data, options: DecodeOptions) throws(ImageError) -> any AnimatedImageDecoder {
        try prepare(data, options: options).decoder
    }

    public func makeIncrementalDecoder(header: Data, options: DecodeOptions) -> (any IncrementalImageDecoder)? {
        canDecode(header) ? GIFIncrementalDecoder(options: options) : nil
    }

    /// Reads the structure, checks the pixel limit for the frames that will be decoded, and sets up the decoder.
    func prepare(_ data: Data, options: DecodeOptions) throws(ImageError) -> (animation: GIFAnimation, decoder: CompositedAnimationDecoder) {
        var structure = GIFStructure()
        try structure.advance(data)
        let animation = try GIFAnimation(data: data, structure: structure)
        let count = options.firstFrameOnly ? 1 : animation.infos.count
        try options.checkPixelLimit(animation.canvas, frames: count)
        // A frame is decoded row by row at its full width, however much of it the screen clips.
        for frame in animation.frames.prefix(count) {
            try options.checkPixelLimit(PixelSize(width: frame.width, height: frame.height))
        }
        let decoder = try CompositedAnimationDecoder(canvasSize: animation.canvas, frames: animation.infos,
                                                     loopCount: animation.loopCount, source: animation, options: options)
        return (animation, decoder)
    }

    public func canEncode(to format: ImageFormat) -> Bool { format == .gif }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        guard format == .gif else { throw ImageError(.unsupportedFormat, "GIFCoder encodes GIF, not \(format)") }
        return try GIFEncoder.encode(image, options: options)
    }
}

extension CompositedAnimationDecoder {
    /// The image, with `.incomplete` added when the source found damage while decoding.
    fileprivate func image(format: ImageFormat, flags: Image.Flags, then animation: GIFAnimation) throws(ImageError) -> Image {
        let image = try image(format: format, flags: flags)
        return animation.isDamaged && !image.flags.contains(.incomplete) ? image.with(flags: image.flags.union(.incomplete)) : image
    }
}

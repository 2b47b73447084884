#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A coder whose format can hold animations, and that can hand out frames one at a time.
///
/// `decode` returns every frame composited; `makeAnimatedDecoder` lets a player produce frames on demand instead
/// of holding all of them in memory.
///
/// Thread safety: the coder and its decoders are `Sendable`.
public protocol AnimatedImageCoder: ImageCoder {
    /// A frame-by-frame decoder over `data`. Errors as for `decode`.
    func makeAnimatedDecoder(_ data: Data, options: DecodeOptions) throws(ImageError) -> any AnimatedImageDecoder
}

/// Random access to the composited frames of one animated file.
///
/// Thread safety: `Sendable`; implementations serialize their own internal state.
public protocol AnimatedImageDecoder: Sendable {
    /// The canvas size every frame has.
    var canvasSize: PixelSize { get }
    /// The number of frames.
    var frameCount: Int { get }
    /// How many times the animation plays: 0 forever.
    var loopCount: Int { get }
    /// How long frame `index` shows, in seconds (browser rule applied: under 11 ms shows 100 ms); an index outside
    /// the frames gets that default too, never a trap.
    func duration(at index: Int) -> Double
    /// Frame `index`, composited onto the canvas; an error (never a trap) for an index outside the frames.
    func frame(at index: Int) throws(ImageError) -> PixelBuffer
    /// Bytes of pixels the decoder keeps between calls now (canvas states for the next frame); 0 by default.
    var heldBytes: Int { get }
    /// The most bytes of pixels the decoder keeps between calls; 0 by default.
    var maxHeldBytes: Int { get }
}

extension AnimatedImageDecoder {
    public var heldBytes: Int { 0 }
    public var maxHeldBytes: Int { 0 }

    /// The frames as one `Image`: the first only with `options.firstFrameOnly`, every frame decoded now with
    /// `options.preloadAllFrames`, else frames on demand through an `ImageCoding.AnimatedFrameBuffer` of
    /// `options.frameBufferLimitBytes` (the first frame is decoded now).
    public func makeImage(format: ImageFormat, options: DecodeOptions, metadata: ImageMetadata = .init())
        throws(ImageError) -> Image
    {
        let count = options.firstFrameOnly ? Swift.min(1, frameCount) : frameCount
        guard count > 0 else { throw ImageError(.badImageData, "the animation has no frames") }
        if options.decodesOnDemand(frameCount: count) {
            let buffer = try ImageCoding.AnimatedFrameBuffer(decoder: self, options: options)
            return Image(
                frameBuffer: buffer, loopCount: loopCount, format: format, scale: options.scaleFactor,
                decodeOptions: options, metadata: metadata)
        }
        var frames: [ImageFrame] = []
        frames.reserveCapacity(count)
        for index in 0..<count {
            frames.append(ImageFrame(pixels: try frame(at: index), duration: count == 1 ? 0 : duration(at: index)))
        }
        return Image(
            frames: frames, loopCount: count == 1 ? 0 : loopCount, format: format,
            scale: options.scaleFactor, decodeOptions: options, metadata: metadata)
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// JPEG XL decoding and encoding on libjxl 0.7.
///
/// Decodes stills and animations (coalesced frames with their durations and loop count), alpha as straight RGBA8
/// (premultiplied when asked), 16 bits per component when the file has more than 8 and `keep16Bit` is set, the
/// codestream's orientation applied (or kept with `applyOrientation == false`), and JPEG files recompressed by
/// `cjxl` (decoded to pixels). Bare codestreams and ISOBMFF containers alike. Decodes incrementally as bytes arrive,
/// showing libjxl's progressive passes; hands out animation frames on demand. libjxl 0.7 has no reduced-size
/// decode, so thumbnails are decoded at full size and resampled. Encodes lossy (distance from the quality) or
/// lossless, stills and animations.
///
/// ```swift
/// let coders = ImageCodersManager(coders: [JXLCoder()])
/// let image = try coders.decode(data, options: .init())
/// let file = try JXLCoder().encode(image, as: .jxl, options: .init(quality: 0.8))
/// ```
///
/// Thread safety: a value type without shared state; decode and encode from any number of threads at once.
public struct JXLCoder: ProgressiveImageCoder, AnimatedImageCoder {
    /// The encoder effort, 1 (fastest) to 9 (smallest files); libjxl's default 7.
    public var effort: Int

    /// A coder that encodes at `effort` (clamped to 1...9); decoding takes no settings beyond `DecodeOptions`.
    public init(effort: Int = 7) {
        self.effort = min(9, max(1, effort))
    }

    public var decodingFormats: [ImageFormat] { [.jxl] }

    public func canDecode(_ data: Data) -> Bool { ImageFormat.detect(data.prefix(16)) == .jxl }

    /// Decodes a still, or an animation: frames on demand (the first decoded now) unless the options ask for every
    /// frame (`preloadAllFrames`) or the first only. Errors: `.badImageData` (malformed or
    /// truncated), `.pixelLimitExceeded` (canvas x frames, checked before allocating), `.outOfMemory`.
    public func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        guard canDecode(data) else { throw ImageError(.badImageData, "JPEG XL: neither a codestream nor a container") }
        let data = JXLContainer.compatible(data)
        let table = try JXLFrameTable(data)
        if options.decodesOnDemand(frameCount: table.durations.count) {
            return try JXLAnimatedDecoder(data, options: options).makeImage()
        }
        let session = try JXLDecodeSession(options: options, expectedFrames: table.durations.count)
        try session.append(data, isLast: true)
        return try Self.image(from: session)
    }

    /// An incremental decoder for any JPEG XL file; nil for data that is not JPEG XL. Animations are collected and
    /// decoded at `finish` (partial images show stills only).
    public func makeIncrementalDecoder(header: Data, options: DecodeOptions) -> (any IncrementalImageDecoder)? {
        canDecode(header) ? JXLIncrementalDecoder(coder: self, options: options) : nil
    }

    /// Frames on demand, composited by libjxl, finished as `options` ask; stills give one frame.
    public func makeAnimatedDecoder(_ data: Data, options: DecodeOptions) throws(ImageError) -> any AnimatedImageDecoder
    {
        guard canDecode(data) else {
            throw ImageError(.unsupportedFormat, "JPEG XL: neither a codestream nor a container")
        }
        return try JXLAnimatedDecoder(JXLContainer.compatible(data), options: options)
    }

    /// The image of a finished session: every frame through `DecodeOptions.finish`.
    static func image(from session: JXLDecodeSession) throws(ImageError) -> Image {
        guard let header = session.header, session.isComplete, !session.frames.isEmpty else {
            throw ImageError(.badImageData, "JPEG XL: truncated file, the data ends before the image is complete")
        }
        let options = session.options
        var frames: [ImageFrame] = []
        var finished: DecodeOptions.FinishedPixels?
        for frame in session.frames {
            let done = try options.finish(frame.pixels, orientation: header.orientation)
            frames.append(ImageFrame(pixels: done.pixels, duration: Self.displayDuration(frame.duration)))
            finished = done
        }
        let isAnimation = frames.count > 1
        if !isAnimation { frames[0] = ImageFrame(pixels: frames[0].pixels) }
        return Image(
            frames: frames, loopCount: isAnimation ? header.loopCount : 0, format: .jxl,
            scale: options.scaleFactor, orientation: finished?.orientation ?? .up,
            flags: finished?.isThumbnail == true ? .thumbnail : [], decodeOptions: options,
            metadata: ImageMetadata(iccProfile: session.iccProfile))
    }

    /// The browser rule: a frame shorter than 11 ms shows for 100 ms.
    static func displayDuration(_ seconds: Double) -> Double { seconds < 0.011 ? 0.1 : seconds }
}

extension JXLCoder: LibraryOpeningCoder {
    package func openLibraries() {
        JXLLibrary.open()
    }
}

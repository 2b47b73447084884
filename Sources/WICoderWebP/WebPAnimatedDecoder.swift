#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WICore
internal import CWebP

/// Random access to the composited frames of a WebP (animated or still) through libwebp's `WebPAnimDecoder`,
/// which applies each frame's blending and disposal onto the canvas.
///
/// libwebp can only decode forwards, so the decoder remembers where it stopped: asking for the frame after the
/// last one decoded costs one frame, asking for the same one again costs nothing (it is cached), and asking for
/// an earlier one rewinds to frame 0 and replays up to it. Sequential playback therefore never replays.
///
/// Frames come out as `DecodeOptions` ask: thumbnail or byte-limited size (each composited frame resampled with
/// the options' `effectiveResampler`), orientation, straight or premultiplied alpha. `scaleDownLimitBytes` bounds all frames
/// together (as SDWebImage does): each frame gets the limit divided by the number of frames decoded.
///
/// Thread safety: `Sendable`; calls are serialized by a lock around libwebp's decoder.
final class WebPAnimatedDecoder: AnimatedImageDecoder {
    let canvasSize: PixelSize
    let frameCount: Int
    let loopCount: Int
    /// The file's ICC, EXIF and XMP chunks.
    let metadata: ImageMetadata
    /// The orientation frames still need (`.up` unless `applyOrientation` is false).
    let remainingOrientation: ImageOrientation
    /// Whether frames are smaller than the file's canvas.
    let isThumbnail: Bool
    private let durations: [Double]
    /// The caller's options (recorded on the image).
    private let options: DecodeOptions
    /// The options each frame is finished with: the byte limit shared among the frames.
    private let frameOptions: DecodeOptions
    private let orientation: ImageOrientation
    private let state: Mutex<Playback>

    /// Reads the parsed container, checks canvas x frames against the pixel limit, then creates libwebp's decoder
    /// (which allocates the canvas).
    init(_ container: sending WebPContainer, options: DecodeOptions) throws(ImageError) {
        let canvas = container.canvasSize
        let count = container.frameCount
        guard count > 0 else { throw ImageError(.badImageData, "WebP: the animation has no frames") }
        try options.checkFrameLimit(count)
        let decodedFrames = options.firstFrameOnly ? 1 : count
        try options.checkPixelLimit(
            canvas, frames: options.pixelLimitFrameCount(frameCount: decodedFrames, canvas: canvas))
        var frameOptions = options
        frameOptions.scaleDownLimitBytes = options.scaleDownLimitBytes.map { max(1, $0 / decodedFrames) }
        orientation = container.orientation
        let plan = WebPOutputPlan(stored: canvas, orientation: orientation, options: frameOptions)
        let turned = options.applyOrientation && orientation.swapsDimensions
        canvasSize = turned ? PixelSize(width: plan.output.height, height: plan.output.width) : plan.output
        frameCount = count
        loopCount = container.loopCount
        metadata = container.metadata
        remainingOrientation = options.applyOrientation ? .up : orientation
        isThumbnail = plan.isScaled
        durations = container.durationsInMilliseconds().map(ImageFrame.browserDuration(milliseconds:))
        self.options = options
        self.frameOptions = frameOptions
        state = Mutex(try Playback(container: container, format: plan.format))
    }

    func duration(at index: Int) -> Double {
        durations.indices.contains(index) ? durations[index] : ImageFrame.browserDuration(milliseconds: 0)
    }

    func frame(at index: Int) throws(ImageError) -> PixelBuffer {
        guard (0..<frameCount).contains(index) else {
            throw ImageError(.badImageData, "WebP: frame \(index) of \(frameCount) does not exist")
        }
        return try state.withLock { playback throws(ImageError) -> PixelBuffer in
            try playback.frame(at: index) { canvas throws(ImageError) in
                try frameOptions.finish(canvas, orientation: orientation).pixels
            }
        }
    }

    /// Every frame (or the first only) as one image, flagged and with metadata.
    func makeImage() throws(ImageError) -> Image {
        let image = try makeImage(format: .webp, options: options, metadata: metadata)
        return image.with(orientation: remainingOrientation, flags: isThumbnail ? .thumbnail : [])
    }
}

/// libwebp's animation decoder and where it stands. Guarded by `WebPAnimatedDecoder`'s lock.
private final class Playback {
    private let container: WebPContainer
    private let decoder: OpaquePointer
    private let size: PixelSize
    private let format: PixelFormat
    /// The index of the frame `WebPAnimDecoderGetNext` returns next.
    private var next = 0
    /// The last frame handed out, as finished for the options.
    private var cached: (index: Int, pixels: PixelBuffer)?

    init(container: WebPContainer, format: PixelFormat) throws(ImageError) {
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            throw ImageError(.badImageData, "WebP: libwebp rejected its animation options (ABI mismatch)")
        }
        options.color_mode = format.isPremultiplied ? MODE_rgbA : MODE_RGBA
        options.use_threads = 0
        var data = container.webpData
        guard let decoder = WebPAnimDecoderNew(&data, &options) else {
            throw ImageError(
                .badImageData, "WebP: libwebp cannot decode this animation (invalid frames or out of memory)")
        }
        self.container = container
        self.decoder = decoder
        self.size = container.canvasSize
        self.format = format
    }

    deinit { WebPAnimDecoderDelete(decoder) }

    /// Frame `index`: the composited canvas, decoded forwards from the last position (or from 0), passed through
    /// `finish`; the last result is kept, so asking again costs nothing.
    func frame(at index: Int, finish: (PixelBuffer) throws(ImageError) -> PixelBuffer) throws(ImageError) -> PixelBuffer
    {
        if let cached, cached.index == index { return cached.pixels }
        if index < next {
            WebPAnimDecoderReset(decoder)
            next = 0
        }
        var pixels: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        while next <= index {
            guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, pixels != nil else {
                let failed = next
                WebPAnimDecoderReset(decoder)
                next = 0
                cached = nil
                throw ImageError(.badImageData, "WebP: frame \(failed) of the animation cannot be decoded")
            }
            next += 1
        }
        var buffer = try PixelBuffer(width: size.width, height: size.height, format: format, zeroed: false)
        try buffer.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: pixels!, byteCount: $0.count) }
        let finished = try finish(buffer)
        cached = (index, finished)
        return finished
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
internal import CJXLShim

/// One pass of libjxl's `JxlDecoder` over a file whose bytes may arrive in pieces: the single decode path behind the
/// one-shot decode, the incremental decoder and the frame-by-frame decoder, so a one-shot decode equals an
/// incremental one by construction.
///
/// The decoder writes each frame straight into a `PixelBuffer` of the output size (libjxl applies the orientation
/// unless the options keep it; coalescing gives every animation frame the canvas size). The pixel limit is checked
/// from the basic info (times the frame count, when the caller counted frames first), before any pixel buffer.
///
/// Not thread-safe: one owner at a time.
final class JXLDecodeSession {
    /// What the header says, once it has been read.
    struct Header {
        /// The output size (upright unless orientation is kept).
        var size: PixelSize
        /// The orientation left to apply (`.up` when libjxl applied it).
        var orientation: ImageOrientation
        /// The file's own orientation.
        var fileOrientation: ImageOrientation
        /// Whether the file is an animation.
        var isAnimated: Bool
        /// Seconds per animation tick (0 for stills).
        var secondsPerTick: Double
        /// How many times the animation plays: 0 forever.
        var loopCount: Int
        /// Whether the file has an alpha channel.
        var hasAlpha: Bool
    }

    let options: DecodeOptions
    private let handle: JXLDecoderHandle
    /// Frames the caller counted beforehand (the pixel limit covers them all), nil for "check one frame".
    private let expectedFrames: Int?
    /// Every byte received; libjxl is given the ones from `consumed` on (it wants its unprocessed bytes again).
    private var received = Data()
    private var consumed = 0
    private var inputClosed = false
    private var format = JxlPixelFormat(
        num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN,
        align: 0)
    private(set) var header: Header?
    /// The frame libjxl is writing into (nil between frames).
    private(set) var canvas: PixelBuffer?
    private var frameDuration = 0.0
    private var frameIsLast = false
    /// The ICC profile of the decoded pixels (libjxl's, for the colour space it decodes to), once read.
    private(set) var iccProfile: Data?
    /// Finished frames, at the decoded size (not yet through `DecodeOptions.finish`).
    private(set) var frames: [ImageFrame] = []
    /// Frames to skip before the first one kept (frame-by-frame access).
    private let skippedFrames: Int
    /// Frames to keep at most.
    private var frameLimit: Int
    /// All frames wanted have been decoded.
    private(set) var isComplete = false
    /// New detail reached the canvas since the last `takeProgress()`.
    private var progressed = false

    /// A session that keeps frames `skipping...` up to `frameLimit` of them (`options.firstFrameOnly` keeps one);
    /// `progressive` asks libjxl for the passes of a frame as they arrive (incremental decoding only: libjxl 0.7
    /// refuses some valid files, e.g. a permuted table of contents, once frame progression is subscribed).
    init(
        options: DecodeOptions, expectedFrames: Int? = nil, skipping: Int = 0, frameLimit: Int = .max,
        progressive: Bool = false
    ) throws(ImageError) {
        self.options = options
        self.expectedFrames = expectedFrames
        self.skippedFrames = skipping
        self.frameLimit = options.firstFrameOnly ? 1 : frameLimit
        handle = try JXLDecoderHandle()
        var events =
            JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FRAME.rawValue
            | JXL_DEC_FULL_IMAGE.rawValue
        if progressive { events |= JXL_DEC_FRAME_PROGRESSION.rawValue }
        try handle.check(jxl.JxlDecoderSubscribeEvents(handle.pointer, Int32(bitPattern: events)), "its events")
        try handle.check(
            jxl.JxlDecoderSetKeepOrientation(handle.pointer, options.applyOrientation ? 0 : 1), "orientation")
        try handle.check(jxl.JxlDecoderSetUnpremultiplyAlpha(handle.pointer, 1), "straight alpha")
        if progressive {
            try handle.check(jxl.JxlDecoderSetProgressiveDetail(handle.pointer, kPasses), "progressive detail")
        }
        if skipping > 0 { jxl.JxlDecoderSkipFrames(handle.pointer, skipping) }
    }

    private var jxl: wi_jxl_functions { handle.jxl }

    /// Feeds the next bytes (`isLast` closes the input: a file that ends before its last frame is then an error).
    /// Returns once libjxl needs more input or has decoded every frame wanted.
    func append(_ data: Data, isLast: Bool) throws(ImageError) {
        guard !isComplete, !inputClosed else { return }
        if received.isEmpty { received = data } else { received.append(data) }
        inputClosed = isLast
        guard received.count > consumed || isLast else { return }
        try feed()
    }

    /// Frame-by-frame playback: in a session given every byte with `isLast: false` (so libjxl may be handed its
    /// unprocessed bytes again), drops the frame kept and decodes the next one; nil after the file's last frame.
    /// `.badImageData` when the data ends inside the frame or libjxl reports damage.
    func decodeNextFrame() throws(ImageError) -> ImageFrame? {
        guard isComplete, !frameIsLast, header?.isAnimated == true else { return nil }
        frames.removeAll()
        frameLimit = 1
        isComplete = false
        try feed()
        guard isComplete, let frame = frames.first else {
            throw ImageError(.badImageData, "JPEG XL: truncated file, the data ends before the image is complete")
        }
        return frame
    }

    /// Hands libjxl the bytes it has not processed and runs it.
    ///
    /// The input is never closed in libjxl (`JxlDecoderCloseInput`): the session's own `inputClosed` says the data
    /// is all there is. Debian's libjxl 0.7 is built without NDEBUG, so it prints its failures to stderr, and a
    /// closed input that runs short prints "decode.cc: missing input"; an open one answers
    /// `JXL_DEC_NEED_MORE_INPUT` quietly, which `process()` turns into the same truncation error.
    private func feed() throws(ImageError) {
        let decoder = handle.pointer
        let start = consumed
        let outcome: Result<Int, ImageError> = received.withUnsafeBytes { bytes in
            let input = bytes.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) + start }
            let available = bytes.count - start
            if let input, available > 0, jxl.JxlDecoderSetInput(decoder, input, available) != JXL_DEC_SUCCESS {
                return .failure(ImageError(.badImageData, "JPEG XL: libjxl refused the input"))
            }
            let result = Result { () throws(ImageError) in try process() }
            let unprocessed = available > 0 ? jxl.JxlDecoderReleaseInput(decoder) : 0
            return result.map { available - min(unprocessed, available) }
        }
        consumed += try outcome.get()
    }

    /// Whether libjxl reached a new progressive step (the DC image, a pass) or finished the frame since the last
    /// call. Files without progressive steps (most lossless ones) have none before the frame is complete.
    func takeProgress() -> Bool {
        defer { progressed = false }
        return progressed
    }

    /// The canvas as far as decoded (libjxl renders what it has into it), nil before its first frame began.
    func flushedCanvas() -> PixelBuffer? {
        guard canvas != nil else { return nil }
        _ = jxl.JxlDecoderFlushImage(handle.pointer)  // JXL_DEC_ERROR only means "nothing new to show yet"
        return canvas
    }

    /// Runs libjxl until it needs input or every frame wanted is done.
    private func process() throws(ImageError) {
        let decoder = handle.pointer
        while !isComplete {
            try WorkerPool.checkCancellation()  // between libjxl's events: a frame, a pass, a box
            let status = jxl.JxlDecoderProcessInput(decoder)
            switch status {
            case JXL_DEC_BASIC_INFO:
                try readBasicInfo()
            case JXL_DEC_COLOR_ENCODING:
                readColorProfile()
            case JXL_DEC_FRAME:
                var frameHeader = JxlFrameHeader()
                try handle.check(jxl.JxlDecoderGetFrameHeader(decoder, &frameHeader), "the frame header")
                frameDuration = Double(frameHeader.duration) * (header?.secondsPerTick ?? 0)
                frameIsLast = frameHeader.is_last != 0
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                try attachCanvas()
            case JXL_DEC_FRAME_PROGRESSION:
                progressed = true
            case JXL_DEC_FULL_IMAGE:
                guard let canvas else { throw ImageError(.badImageData, "JPEG XL: a frame ended before it began") }
                frames.append(ImageFrame(pixels: canvas, duration: frameDuration))
                self.canvas = nil
                progressed = true
                if frames.count >= frameLimit || frameIsLast || header?.isAnimated == false { isComplete = true }
            case JXL_DEC_SUCCESS:
                guard !frames.isEmpty else { throw ImageError(.badImageData, "JPEG XL: the file has no frame") }
                isComplete = true
            case JXL_DEC_NEED_MORE_INPUT:
                if inputClosed {
                    throw ImageError(
                        .badImageData, "JPEG XL: truncated file, the data ends before the image is complete")
                }
                return
            case JXL_DEC_ERROR:
                throw ImageError(.badImageData, "JPEG XL: libjxl reports a malformed or unsupported codestream")
            default:
                throw ImageError(.badImageData, "JPEG XL: unexpected decoder status \(status.rawValue)")
            }
        }
    }

    /// The profile of the pixels libjxl outputs (the file's ICC profile, or one libjxl writes for its encoded colour
    /// space); left nil when libjxl has none to give.
    private func readColorProfile() {
        var size = 0
        let target = JXL_COLOR_PROFILE_TARGET_DATA
        guard jxl.JxlDecoderGetICCProfileSize(handle.pointer, nil, target, &size) == JXL_DEC_SUCCESS, size > 0 else {
            return
        }
        var profile = [UInt8](repeating: 0, count: size)
        guard jxl.JxlDecoderGetColorAsICCProfile(handle.pointer, nil, target, &profile, size) == JXL_DEC_SUCCESS else {
            return
        }
        iccProfile = Data(profile)
    }

    private func readBasicInfo() throws(ImageError) {
        var info = JxlBasicInfo()
        try handle.check(jxl.JxlDecoderGetBasicInfo(handle.pointer, &info), "the basic info")
        let fileOrientation = ImageOrientation(rawValue: Int(info.orientation.rawValue)) ?? .up
        var size = PixelSize(width: Int(info.xsize), height: Int(info.ysize))
        let turned = options.applyOrientation && fileOrientation.swapsDimensions
        if turned { size = PixelSize(width: size.height, height: size.width) }
        let frames = options.firstFrameOnly ? 1 : min(expectedFrames ?? 1, frameLimit)
        try options.checkPixelLimit(size, frames: frames)
        let isAnimated = info.have_animation != 0
        var secondsPerTick = 0.0
        if isAnimated && info.animation.tps_numerator > 0 {
            secondsPerTick = Double(info.animation.tps_denominator) / Double(info.animation.tps_numerator)
        }
        header = Header(
            size: size, orientation: options.applyOrientation ? .up : fileOrientation,
            fileOrientation: fileOrientation, isAnimated: isAnimated, secondsPerTick: secondsPerTick,
            loopCount: isAnimated ? Int(info.animation.num_loops) : 0, hasAlpha: info.alpha_bits > 0)
        if options.keep16Bit && info.bits_per_sample > 8 { format.data_type = JXL_TYPE_UINT16 }
    }

    /// Allocates the frame's buffer and hands it to libjxl, after checking that libjxl wants exactly its size.
    private func attachCanvas() throws(ImageError) {
        guard let header else { throw ImageError(.badImageData, "JPEG XL: pixels before the basic info") }
        let pixelFormat: PixelFormat = format.data_type == JXL_TYPE_UINT16 ? .rgba16 : .rgba8
        // Zeroed: partial images show transparent black where nothing was decoded yet.
        var buffer = try PixelBuffer(
            width: header.size.width, height: header.size.height, format: pixelFormat,
            zeroed: true)
        var wanted = 0
        try handle.check(jxl.JxlDecoderImageOutBufferSize(handle.pointer, &format, &wanted), "the output size")
        guard wanted == buffer.byteCount else {
            throw ImageError(.badImageData, "JPEG XL: libjxl wants \(wanted) bytes for a \(header.size) frame")
        }
        let decoder = handle.pointer
        // The memory stays this buffer's: it is not written through Swift (nor copied) while libjxl decodes into it.
        let status = try buffer.withUnsafeMutableBytes { memory in
            jxl.JxlDecoderSetImageOutBuffer(decoder, &format, memory.baseAddress, memory.count)
        }
        try handle.check(status, "the output buffer")
        canvas = buffer
    }
}

/// Owns one `JxlDecoder` and turns its status codes into `ImageError`s.
///
/// Not thread-safe: used by one session.
final class JXLDecoderHandle {
    let pointer: OpaquePointer
    let jxl: wi_jxl_functions

    /// Throws `.unsupportedFormat` when libjxl cannot be loaded.
    init() throws(ImageError) {
        let jxl = try JXLLibrary.functions()
        guard let pointer = jxl.JxlDecoderCreate(nil) else {
            throw ImageError(.outOfMemory, "JPEG XL: cannot create a decoder")
        }
        self.pointer = pointer
        self.jxl = jxl
    }

    deinit { jxl.JxlDecoderDestroy(pointer) }

    /// Throws `.badImageData` naming `what` unless `status` is `JXL_DEC_SUCCESS` (libjxl gives no message).
    func check(_ status: JxlDecoderStatus, _ what: String) throws(ImageError) {
        guard status == JXL_DEC_SUCCESS else { throw ImageError(.badImageData, "JPEG XL: libjxl refused \(what)") }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
internal import CWebP

/// Decodes a still WebP as it arrives with libwebp's incremental decoder (`WebPIDecoder`), writing straight into
/// the final-size buffer: rows appear as their bytes do (lossy files macroblock row by macroblock row).
///
/// Animated files are not decoded incrementally (libwebp's incremental decoder has no animation support): when
/// the header shows an animation the decoder only collects the bytes and `finish` decodes them in one go.
/// EXIF sits after the image data, so the orientation is unknown until the end: when the VP8X header announces
/// EXIF and the options apply orientation, no partial images are shown (they could have the wrong shape) and
/// `finish` gives the upright image.
///
/// Not thread-safe: one transfer's decoder, used from one task at a time.
final class WebPIncrementalDecoder: IncrementalImageDecoder {
    private let coder: WebPCoder
    private let options: DecodeOptions
    private var received = Data()
    private var session: WebPIncrementalSession?
    private var isAnimated = false
    /// The file has EXIF whose orientation is not yet known: partial images are held back.
    private var withholdsPartials = false
    private var failure: ImageError?
    private var rowsShown = 0

    init(coder: WebPCoder, options: DecodeOptions) {
        self.coder = coder
        self.options = options
    }

    func append(_ data: Data) throws(ImageError) -> Bool {
        if let failure { throw failure }
        received.append(data)
        do {
            if let session {
                try session.append(data)
            } else if !isAnimated {
                try start()
            }
        } catch {
            failure = error
            throw error
        }
        return !withholdsPartials && (session?.rowsDecoded ?? 0) > rowsShown
    }

    /// Reads the header once enough bytes arrived; then allocates the output and feeds what came so far.
    private func start() throws(ImageError) {
        var features = WebPBitstreamFeatures()
        let status = received.withUnsafeBytes { bytes in
            WebPGetFeatures(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        }
        if status == VP8_STATUS_NOT_ENOUGH_DATA { return }
        try WebPStatus.check(status, "header")
        if features.has_animation != 0 {
            isAnimated = true
            return
        }
        withholdsPartials = options.applyOrientation && (WebPCoder.vp8xFlags(received) ?? 0) & 0x08 != 0
        let stored = PixelSize(width: Int(features.width), height: Int(features.height))
        try options.checkPixelLimit(stored)
        let session = try WebPIncrementalSession(
            plan: WebPOutputPlan(stored: stored, orientation: .up, options: options))
        try session.append(received)
        self.session = session
    }

    func currentImage() -> Image? {
        guard let session, !withholdsPartials else { return nil }
        rowsShown = session.rowsDecoded
        // A private copy: libwebp goes on writing into the session's buffer.
        var pixels = session.pixels
        guard (try? pixels.makeUnique()) != nil,
            let finished = try? options.finish(pixels, orientation: .up, fullSize: session.plan.stored)
        else { return nil }
        return Image(
            pixels: finished.pixels, format: .webp, scale: options.scaleFactor,
            orientation: finished.orientation,
            flags: finished.isThumbnail ? [.incremental, .thumbnail] : .incremental, decodeOptions: options)
    }

    func finish() throws(ImageError) -> Image {
        if let failure { throw failure }
        guard let session else { return try coder.decode(received, options: options) }
        guard session.isComplete else {
            throw ImageError(.badImageData, "WebP: truncated file, the data ends before the image is complete")
        }
        let container = try WebPContainer(received)
        let orientation = container.orientation
        let plan = WebPOutputPlan(stored: session.plan.stored, orientation: orientation, options: options)
        // An EXIF rotation that swaps width and height changes the thumbnail's stored size: decode again in one
        // go so the result equals a one-shot decode.
        guard plan.output == session.plan.output else { return try coder.decode(received, options: options) }
        let finished = try options.finish(session.pixels, orientation: orientation, fullSize: plan.stored)
        return Image(
            pixels: finished.pixels, format: .webp, scale: options.scaleFactor,
            orientation: finished.orientation, flags: finished.isThumbnail ? .thumbnail : [],
            decodeOptions: options, metadata: container.metadata)
    }
}

/// libwebp's incremental decoder writing into one of our buffers. The configuration lives at a fixed address
/// because libwebp keeps pointers to its output and options.
private final class WebPIncrementalSession {
    let plan: WebPOutputPlan
    /// The output buffer libwebp writes into; copy before sharing while decoding goes on.
    let pixels: PixelBuffer
    private let config: UnsafeMutablePointer<WebPDecoderConfig>
    private let decoder: OpaquePointer
    private(set) var isComplete = false

    init(plan: WebPOutputPlan) throws(ImageError) {
        self.plan = plan
        var pixels = try plan.makeBuffer(zeroed: true)
        let config = UnsafeMutablePointer<WebPDecoderConfig>.allocate(capacity: 1)
        config.initialize(to: WebPDecoderConfig())
        guard WebPInitDecoderConfig(config) != 0 else {
            config.deallocate()
            throw ImageError(.badImageData, "WebP: libwebp rejected its decoder configuration (ABI mismatch)")
        }
        let rowBytes = pixels.bytesPerRow
        // The memory stays this buffer's: `pixels` is never written through Swift while libwebp decodes.
        try pixels.withUnsafeMutableBytes { plan.configure(&config.pointee, memory: $0, bytesPerRow: rowBytes) }
        guard let decoder = WebPIDecode(nil, 0, config) else {
            config.deallocate()
            throw ImageError(.outOfMemory, "WebP: cannot create an incremental decoder")
        }
        self.pixels = pixels
        self.config = config
        self.decoder = decoder
    }

    deinit {
        WebPIDelete(decoder)
        WebPFreeDecBuffer(&config.pointee.output)
        config.deallocate()
    }

    /// Feeds bytes; libwebp copies what it needs.
    func append(_ data: Data) throws(ImageError) {
        guard !isComplete else { return }
        let status = data.withUnsafeBytes { bytes in
            WebPIAppend(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
        switch status {
        case VP8_STATUS_OK: isComplete = true
        case VP8_STATUS_SUSPENDED: break
        default: throw WebPStatus.error(status, "incremental decode")
        }
    }

    /// Output rows complete so far.
    var rowsDecoded: Int {
        var lastY: Int32 = 0
        guard WebPIDecGetRGB(decoder, &lastY, nil, nil, nil) != nil else { return 0 }
        return Int(lastY)
    }
}

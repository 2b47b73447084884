#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WICore

/// Frames of a JPEG XL file on demand. The frame table (read once, without pixels) gives the count and
/// durations. A libjxl session stays open after each frame: asking for the next frame continues it (one frame
/// decoded, in-order playback never replays); any other frame N opens a session in which libjxl skips frames
/// 0..<N (it still decodes what later frames are composited onto). Only the frame just decoded is held.
///
/// Thread safety: `Sendable`; calls are serialized by a lock around the open session.
final class JXLAnimatedDecoder: AnimatedImageDecoder {
    let canvasSize: PixelSize
    let frameCount: Int
    let loopCount: Int
    /// The orientation frames still need (`.up` unless `applyOrientation` is false).
    let remainingOrientation: ImageOrientation
    /// Whether frames are smaller than the file's canvas.
    let isThumbnail: Bool
    private let data: Data
    private let options: DecodeOptions
    private let durations: [Double]
    /// Bytes of one decoded frame before finishing (the most the open session holds).
    private let decodedFrameBytes: Int
    private let playback = Mutex<Playback?>(nil)

    /// The open session and the index of the frame it decodes next.
    private struct Playback {
        var session: JXLDecodeSession
        var next: Int
    }

    init(_ data: Data, options: DecodeOptions) throws(ImageError) {
        let table = try JXLFrameTable(data)
        let stored = table.storedSize
        let size =
            options.applyOrientation && table.orientation.swapsDimensions
            ? PixelSize(width: stored.height, height: stored.width) : stored
        try options.checkFrameLimit(table.durations.count)
        let count = options.firstFrameOnly ? 1 : table.durations.count
        try options.checkPixelLimit(size, frames: options.pixelLimitFrameCount(frameCount: count, canvas: size))
        self.data = data
        self.options = options
        durations = table.durations
        frameCount = count
        loopCount = table.isAnimated ? table.loopCount : 0
        canvasSize = options.targetSize(for: size) ?? size
        isThumbnail = canvasSize != size
        remainingOrientation = options.applyOrientation ? .up : table.orientation
        decodedFrameBytes = size.area.multipliedReportingOverflow(by: options.keep16Bit ? 8 : 4).partialValue
    }

    func duration(at index: Int) -> Double {
        frameCount > 1 && durations.indices.contains(index) ? JXLCoder.displayDuration(durations[index]) : 0
    }

    var heldBytes: Int { playback.withLock { $0?.session.frames.reduce(0) { $0 + $1.pixels.byteCount } ?? 0 } }

    var maxHeldBytes: Int { decodedFrameBytes }

    func frame(at index: Int) throws(ImageError) -> PixelBuffer {
        guard (0..<frameCount).contains(index) else {
            throw ImageError(.badImageData, "JPEG XL: frame \(index) of \(frameCount) does not exist")
        }
        let (data, options) = (self.data, self.options)
        return try playback.withLock { playback throws(ImageError) -> PixelBuffer in
            do throws(ImageError) {
                var raw: ImageFrame?
                if let open = playback, open.next == index { raw = try open.session.decodeNextFrame() }
                if raw == nil {
                    var frameOptions = options
                    frameOptions.firstFrameOnly = false
                    let session = try JXLDecodeSession(options: frameOptions, skipping: index, frameLimit: 1)
                    try session.append(data, isLast: false)
                    guard session.isComplete else {
                        throw ImageError(.badImageData, "JPEG XL: truncated file, the data ends before frame \(index)")
                    }
                    playback = Playback(session: session, next: index)
                    raw = session.frames.first
                }
                guard let raw, let header = playback?.session.header else {
                    throw ImageError(.badImageData, "JPEG XL: frame \(index) is missing")
                }
                playback?.next = index + 1
                return try options.finish(raw.pixels, orientation: header.orientation).pixels
            } catch {
                playback = nil
                throw error
            }
        }
    }

    /// The frames as one image (on demand unless the options ask for every frame or the first only), flagged a
    /// thumbnail when scaled, with the orientation left to apply and the profile of the pixels (read by the session
    /// that decoded the first frame).
    func makeImage() throws(ImageError) -> Image {
        let image = try makeImage(format: .jxl, options: options)
        let profile = playback.withLock { $0?.session.iccProfile }
        return image.with(
            orientation: remainingOrientation, flags: isThumbnail ? .thumbnail : [],
            metadata: ImageMetadata(iccProfile: profile))
    }
}

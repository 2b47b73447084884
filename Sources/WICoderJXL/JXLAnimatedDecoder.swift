#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// Frames of a JPEG XL file on demand. The frame table (read once, without pixels) gives the count and
/// durations; frame N comes from a session in which libjxl skips frames 0..<N (it still decodes what later frames
/// are composited onto), so no frame but the one asked for is held in memory.
///
/// Thread safety: immutable after `init`; every call makes its own libjxl decoder.
final class JXLAnimatedDecoder: AnimatedImageDecoder {
    let canvasSize: PixelSize
    let frameCount: Int
    let loopCount: Int
    private let data: Data
    private let options: DecodeOptions
    private let durations: [Double]

    init(_ data: Data, options: DecodeOptions) throws(ImageError) {
        let table = try JXLFrameTable(data)
        let stored = table.storedSize
        let size = options.applyOrientation && table.orientation.swapsDimensions
            ? PixelSize(width: stored.height, height: stored.width) : stored
        try options.checkPixelLimit(size, frames: 1)
        self.data = data
        self.options = options
        durations = table.durations
        frameCount = options.firstFrameOnly ? 1 : table.durations.count
        loopCount = table.isAnimated ? table.loopCount : 0
        canvasSize = options.targetSize(for: size) ?? size
    }

    func duration(at index: Int) -> Double {
        frameCount > 1 && durations.indices.contains(index) ? JXLCoder.displayDuration(durations[index]) : 0
    }

    func frame(at index: Int) throws(ImageError) -> PixelBuffer {
        guard (0..<frameCount).contains(index) else {
            throw ImageError(.badImageData, "JPEG XL: frame \(index) of \(frameCount) does not exist")
        }
        var frameOptions = options
        frameOptions.firstFrameOnly = false
        let session = try JXLDecodeSession(options: frameOptions, skipping: index, frameLimit: 1)
        try session.append(data, isLast: true)
        guard let raw = session.frames.first, let header = session.header else {
            throw ImageError(.badImageData, "JPEG XL: frame \(index) is missing")
        }
        return try options.finish(raw.pixels, orientation: header.orientation).pixels
    }
}

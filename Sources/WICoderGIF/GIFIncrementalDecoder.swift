#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
import WICoderSupport

/// Decodes a GIF as it arrives, frame by frame.
///
/// The partial image is the latest complete frame, composited; before the first frame is complete it is the first
/// frame as far as its rows have arrived (the rest transparent). `finish()` decodes every byte received exactly as
/// a one-shot decode does.
///
/// Not thread-safe: one transfer's decoder, used from one task at a time.
final class GIFIncrementalDecoder: IncrementalImageDecoder {
    private let options: DecodeOptions
    private var data = Data()
    private var structure = GIFStructure()
    private var framesShown = 0
    private var unfinishedDataShown = 0
    private var partialFirstFrame: Image?
    /// Plays the complete frames as they arrive.
    private var compositor: ImageCoding.FrameCompositor?

    init(options: DecodeOptions) {
        self.options = options
    }

    func append(_ chunk: Data) throws(ImageError) -> Bool {
        data.append(chunk)
        try structure.advance(data)
        if structure.frames.count > framesShown { return true }
        // Before the first frame is complete, each complete data sub-block may show more rows.
        guard structure.frames.isEmpty, structure.unfinishedFrame != nil,
            structure.unfinishedDataEnd > unfinishedDataShown
        else { return false }
        unfinishedDataShown = structure.unfinishedDataEnd
        partialFirstFrame = latestFrame()
        return partialFirstFrame != nil
    }

    func currentImage() -> Image? {
        framesShown = structure.frames.count
        return structure.frames.isEmpty ? partialFirstFrame : latestFrame()
    }

    /// The latest complete frame, or the first one as far as it arrived; nil when nothing can be shown.
    ///
    /// Complete frames go through one compositor kept for the whole transfer, so each new frame costs one draw.
    private func latestFrame() -> Image? {
        guard structure.hasHeader, let animation = try? GIFAnimation(data: data, structure: structure) else {
            return nil
        }
        do {
            try options.checkPixelLimit(animation.canvas)
            let last = animation.infos.count - 1
            var composited: PixelBuffer
            if animation.lastFrameUnfinished {
                var partial = try ImageCoding.FrameCompositor(canvasSize: animation.canvas, frames: animation.infos)
                composited = try partial.frame(at: last) { index, info, canvas throws(ImageError) in
                    try animation.draw(frame: index, info: info, onto: &canvas)
                }
            } else {
                if compositor == nil {
                    compositor = try ImageCoding.FrameCompositor(canvasSize: animation.canvas, frames: [])
                }
                try compositor!.appendFrames(Array(animation.infos[compositor!.frames.count...]))
                composited = try compositor!.frame(at: last) { index, info, canvas throws(ImageError) in
                    try animation.draw(frame: index, info: info, onto: &canvas)
                }
            }
            let finished = try options.finish(composited, orientation: .up)
            return Image(
                pixels: finished.pixels, format: .gif, scale: options.scaleFactor,
                flags: finished.isThumbnail ? [.incremental, .thumbnail] : .incremental, decodeOptions: options)
        } catch {
            return nil
        }
    }

    func finish() throws(ImageError) -> Image {
        try GIFCoder().decode(data, options: options)
    }
}

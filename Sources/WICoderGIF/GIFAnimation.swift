#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WICore
import WICoderSupport

/// A read GIF structure turned into what the compositor plays: the canvas, each frame's clipped rectangle,
/// disposal, blend and duration, and the loop count. Also the frame source that decodes the frames with giflib.
///
/// Browser semantics: the canvas starts transparent; frames are clipped to the logical screen; disposal 2 clears
/// the frame's rectangle to transparent and 3 restores the canvas as it was before the frame (0, 1 and the
/// undefined 4-7 leave it); transparent and out-of-palette indices leave the canvas pixel as it is; a delay under
/// 11 ms shows 100 ms; no NETSCAPE2.0 extension plays once (loop count 1), a value of 0 loops forever and N
/// repeats N times after the first play (loop count N + 1), as browsers play it.
///
/// Thread safety: immutable apart from the damage record, which a lock guards.
final class GIFAnimation: ImageCoding.AnimationFrameSource {
    let data: Data
    let structure: GIFStructure
    let canvas: PixelSize
    /// The frames used: the complete ones, or the unfinished first one when no frame is complete.
    let frames: [GIFStructure.Frame]
    let infos: [ImageCoding.AnimationFrameInfo]
    /// Whether the last frame's data is known to be cut short (the unfinished first frame).
    let lastFrameUnfinished: Bool
    private let damagedFrames = Mutex<Set<Int>>([])

    /// Throws `.badImageData` when there is no frame at all.
    init(data: Data, structure: GIFStructure) throws(ImageError) {
        var frames = structure.frames
        var unfinished = false
        if frames.isEmpty, let first = structure.unfinishedFrame, first.width > 0, first.height > 0 {
            frames = [first]
            unfinished = true
        }
        guard let first = frames.first else {
            throw ImageError(
                .badImageData, structure.hasHeader ? "GIF: the file holds no frame" : "GIF: truncated header")
        }
        // A logical screen of 0 in a dimension takes the first frame's extent, as browsers do.
        var canvas = structure.screen
        if canvas.width == 0 || canvas.height == 0 {
            canvas = PixelSize(width: first.left + first.width, height: first.top + first.height)
        }
        self.data = data
        self.structure = structure
        self.canvas = canvas
        self.frames = frames
        self.lastFrameUnfinished = unfinished
        self.infos = frames.map { Self.info(for: $0, canvas: canvas) }
    }

    /// The loop count as browsers play it (see the type's documentation).
    var loopCount: Int {
        guard let loops = structure.netscapeLoops else { return 1 }
        return loops == 0 ? 0 : loops + 1
    }

    /// Whether the file ends inside a record or a frame could not be decoded completely (damaged or cut).
    var isDamaged: Bool { lastFrameUnfinished || structure.unreadBytes > 0 || damagedFrames.withLock { !$0.isEmpty } }

    func pixels(ofFrame index: Int) throws(ImageError) -> PixelBuffer {
        let result = try GIFFrameDecoder.decode(
            data, structure: structure, frame: frames[index], clip: infos[index],
            shortData: Self.shortData(frame: index))
        if !result.isComplete { damagedFrames.withLock { _ = $0.insert(index) } }
        return result.pixels
    }

    /// Writes the frame's palette colours straight onto the canvas (transparent indices leave it as it is): the
    /// same result as drawing `pixels(ofFrame:)` over it, in one pass.
    func draw(frame index: Int, info: ImageCoding.AnimationFrameInfo, onto canvas: inout PixelBuffer) throws(ImageError)
    {
        let complete = try GIFFrameDecoder.draw(
            data, structure: structure, frame: frames[index], clip: infos[index],
            onto: &canvas, origin: (0, 0), shortData: Self.shortData(frame: index))
        if !complete { damagedFrames.withLock { _ = $0.insert(index) } }
    }

    /// A frame whose data runs short keeps the rows that decoded, the rest transparent, as browsers show it; the
    /// first frame needs at least one row (else the file has no image).
    private static func shortData(frame index: Int) -> GIFFrameDecoder.ShortData {
        index == 0 ? .keepRowsIfAny : .keepRows
    }

    private static func info(for frame: GIFStructure.Frame, canvas: PixelSize) -> ImageCoding.AnimationFrameInfo {
        let left = Swift.min(frame.left, canvas.width)
        let top = Swift.min(frame.top, canvas.height)
        let right = Swift.min(frame.left + frame.width, canvas.width)
        let bottom = Swift.min(frame.top + frame.height, canvas.height)
        let disposal: ImageCoding.AnimationFrameInfo.Disposal =
            switch frame.disposal {
            case 2: .background
            case 3: .previous
            default: .none
            }
        // Opaque when no index can be transparent: no transparent index and a palette covering every literal code.
        let opaque = frame.transparentIndex == nil && frame.paletteCount >= 1 << Swift.min(12, frame.lzwMinimumCodeSize)
        return ImageCoding.AnimationFrameInfo(
            x: left, y: top, width: right - left, height: bottom - top, disposal: disposal,
            blend: .over, duration: ImageFrame.browserDuration(milliseconds: frame.delayMilliseconds),
            isOpaque: opaque)
    }
}

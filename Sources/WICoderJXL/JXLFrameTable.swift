#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
internal import CJXLShim

/// The frames of a JPEG XL file, read without decoding pixels: libjxl parses the frame headers and skips the
/// pixel data when no image event is subscribed. Gives the counts and durations the pixel limit and the
/// frame-by-frame decoder need before any pixel buffer exists.
struct JXLFrameTable {
    /// The canvas size in the file (before orientation).
    var storedSize: PixelSize
    /// The codestream's orientation.
    var orientation: ImageOrientation = .up
    /// Whether the file is an animation.
    var isAnimated: Bool
    /// Each displayed frame's duration in seconds, as stored (no browser rule applied).
    var durations: [Double]
    /// How many times the animation plays: 0 forever.
    var loopCount: Int

    /// Reads `data` (the whole file). Errors: `.badImageData` for a malformed or truncated file.
    init(_ data: Data) throws(ImageError) {
        let handle = try JXLDecoderHandle()
        let jxl = handle.jxl
        let decoder = handle.pointer
        let events = JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_FRAME.rawValue
        try handle.check(jxl.JxlDecoderSubscribeEvents(decoder, Int32(bitPattern: events)), "its events")
        let outcome: Result<JXLFrameTable, ImageError> = data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty,
                jxl.JxlDecoderSetInput(decoder, base.assumingMemoryBound(to: UInt8.self), bytes.count)
                    == JXL_DEC_SUCCESS
            else { return .failure(ImageError(.badImageData, "JPEG XL: empty input")) }
            // Not closed (see JXLDecodeSession.feed): the last frame's header ends the walk, and running short
            // before it is JXL_DEC_NEED_MORE_INPUT, with nothing printed to stderr.
            defer { _ = jxl.JxlDecoderReleaseInput(decoder) }
            return Result { () throws(ImageError) in try Self.read(handle) }
        }
        self = try outcome.get()
    }

    private init(storedSize: PixelSize, isAnimated: Bool, durations: [Double], loopCount: Int) {
        self.storedSize = storedSize
        self.isAnimated = isAnimated
        self.durations = durations
        self.loopCount = loopCount
    }

    private static func read(_ handle: JXLDecoderHandle) throws(ImageError) -> JXLFrameTable {
        let jxl = handle.jxl
        var info = JxlBasicInfo()
        var table = JXLFrameTable(
            storedSize: PixelSize(width: 0, height: 0), isAnimated: false, durations: [],
            loopCount: 0)
        var secondsPerTick = 0.0
        while true {
            switch jxl.JxlDecoderProcessInput(handle.pointer) {
            case JXL_DEC_BASIC_INFO:
                try handle.check(jxl.JxlDecoderGetBasicInfo(handle.pointer, &info), "the basic info")
                table.storedSize = PixelSize(width: Int(info.xsize), height: Int(info.ysize))
                table.isAnimated = info.have_animation != 0
                table.orientation = ImageOrientation(rawValue: Int(info.orientation.rawValue)) ?? .up
                table.loopCount = table.isAnimated ? Int(info.animation.num_loops) : 0
                if table.isAnimated && info.animation.tps_numerator > 0 {
                    secondsPerTick = Double(info.animation.tps_denominator) / Double(info.animation.tps_numerator)
                }
            case JXL_DEC_FRAME:
                var frame = JxlFrameHeader()
                try handle.check(jxl.JxlDecoderGetFrameHeader(handle.pointer, &frame), "the frame header")
                table.durations.append(Double(frame.duration) * secondsPerTick)
                if frame.is_last != 0 { return table }
            case JXL_DEC_SUCCESS:
                guard !table.durations.isEmpty else {
                    throw ImageError(.badImageData, "JPEG XL: the file has no frame")
                }
                return table
            case JXL_DEC_NEED_MORE_INPUT:
                throw ImageError(.badImageData, "JPEG XL: truncated file, the data ends before the last frame")
            default:
                throw ImageError(.badImageData, "JPEG XL: libjxl reports a malformed or unsupported codestream")
            }
        }
    }
}

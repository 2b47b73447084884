#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
import WICoderSupport

/// The animation chunks of an APNG (acTL, fcTL, fdAT), read in Swift because Debian's libpng has no APNG support.
///
/// Every chunk used is bounds-checked and its CRC verified; fcTL/fdAT sequence numbers must run 0, 1, 2...;
/// frame rectangles must lie inside the canvas; the frames must be as many as acTL announces. A structurally invalid
/// animation (a bad animation chunk, out-of-order sequence numbers, an fcTL before acTL, a frame count that does not
/// match) is not an animation: the file shows its default image as a still, as browsers do. A frame counts once the
/// chunk after its data arrived (the next fcTL or IEND): a file cut inside a frame keeps the frames before it and
/// reports `isTruncated`.
struct APNGStructure {
    struct Frame {
        var info: ImageCoding.AnimationFrameInfo
        /// Where the frame's zlib data lies in the file (IDAT data, or fdAT data after the sequence number).
        var data: [Range<Int>]
    }

    var canvas: PixelSize
    /// IHDR's data (13 bytes).
    var header: [UInt8]
    /// PLTE and tRNS chunks, whole (length, type, data, CRC), for each frame's standalone stream.
    var sharedChunks: [[UInt8]] = []
    /// iCCP, eXIf and colour (sRGB, gAMA, cHRM, cICP) chunks before the image data, whole, for the image's metadata.
    var metadataChunks: [[UInt8]] = []
    var frames: [Frame] = []
    /// acTL num_plays: 0 forever, else the number of plays.
    var plays = 0
    /// Whether the IDAT image is the first frame (an fcTL came before it) or a default image outside the animation.
    var defaultImageIsFrame = false
    var isTruncated = false

    /// The animation in `data`, or nil when it is not an APNG (no acTL before the first IDAT), no frame is complete,
    /// or the animation is structurally invalid (then the default image is decoded as a still).
    static func read(_ data: Data) -> APNGStructure? {
        data.withUnsafeBytes { raw in
            do throws(ImageError) {
                return try read(raw.bindMemory(to: UInt8.self))
            } catch {
                return nil  // why it is invalid: `validate(_:)`
            }
        }
    }

    /// Why the animation in `data` is invalid (nil when it is valid or not an animation): for tests and fuzzing.
    static func validate(_ data: Data) -> ImageError? {
        data.withUnsafeBytes { raw in
            do throws(ImageError) {
                _ = try read(raw.bindMemory(to: UInt8.self))
                return nil
            } catch {
                return error
            }
        }
    }

    private static func read(_ p: UnsafeBufferPointer<UInt8>) throws(ImageError) -> APNGStructure? {
        guard p.count >= 33, Array(p[0..<8]) == [137, 80, 78, 71, 13, 10, 26, 10] else { return nil }
        func word(_ at: Int) -> Int { Int(p[at]) << 24 | Int(p[at + 1]) << 16 | Int(p[at + 2]) << 8 | Int(p[at + 3]) }
        func half(_ at: Int) -> Int { Int(p[at]) << 8 | Int(p[at + 1]) }
        var result: APNGStructure?
        var frameCount = 0
        var sequence = 0
        var pending: Frame?
        var seenIDAT = false
        var pendingIsDefaultImage = false
        var offset = 8
        while true {
            guard offset + 12 <= p.count else {
                result?.isTruncated = true
                break
            }
            let length = word(offset)
            let type = String(decoding: UnsafeBufferPointer(rebasing: p[(offset + 4)..<(offset + 8)]), as: UTF8.self)
            let body = offset + 8
            guard length <= 0x7FFF_FFFF, body + length + 4 <= p.count else {
                result?.isTruncated = true
                break
            }
            let chunk = offset..<(body + length + 4)
            offset = chunk.upperBound
            if type == "IHDR" {
                guard length == 13 else { return nil }
                result = APNGStructure(
                    canvas: PixelSize(width: word(body), height: word(body + 4)),
                    header: Array(p[body..<(body + 13)]))
                continue
            }
            guard result != nil else { return nil }
            // A still PNG ends here: no acTL before the image data.
            if type == "IDAT" && frameCount == 0 { return nil }
            if type == "acTL" || (frameCount > 0 && ["fcTL", "fdAT", "IDAT", "PLTE", "tRNS"].contains(type)) {
                let stored = UInt32(word(body + length))
                guard
                    CRC32.update(
                        0, UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: p[(body - 4)..<(body + length)])))
                        == stored
                else {
                    throw ImageError(.badImageData, "APNG: CRC error in \(type) chunk")
                }
            }
            switch type {
            case "acTL":
                guard frameCount == 0 else { throw ImageError(.badImageData, "APNG: a second acTL") }
                guard length == 8 else { throw ImageError(.badImageData, "APNG: an acTL of \(length) bytes") }
                frameCount = word(body)
                result!.plays = word(body + 4)
                guard frameCount > 0 else { throw ImageError(.badImageData, "APNG: acTL announces 0 frames") }
            case "PLTE", "tRNS":
                if !seenIDAT { result!.sharedChunks.append(Array(p[chunk])) }
            case "iCCP", "eXIf", "sRGB", "gAMA", "cHRM", "cICP":
                if !seenIDAT { result!.metadataChunks.append(Array(p[chunk])) }
            case "IDAT":
                if !seenIDAT, let frame = pending, frameCount > 0 {
                    guard result!.frames.isEmpty, frame.info.covers(result!.canvas), frame.info.x == 0,
                        frame.info.y == 0,
                        frame.info.width == result!.canvas.width, frame.info.height == result!.canvas.height
                    else {
                        throw ImageError(.badImageData, "APNG: the first frame's fcTL does not match IHDR")
                    }
                    result!.defaultImageIsFrame = true
                    pendingIsDefaultImage = true
                }
                seenIDAT = true
                if pendingIsDefaultImage { pending!.data.append(body..<(body + length)) }
            case "fcTL":
                guard frameCount > 0 else {
                    if seenIDAT { continue }  // after the image data with no acTL: a still PNG's stray chunk
                    throw ImageError(.badImageData, "APNG: fcTL before acTL")
                }
                guard length == 26, word(body) == sequence else {
                    throw ImageError(.badImageData, "APNG: fcTL out of sequence (expected \(sequence))")
                }
                sequence += 1
                if let done = pending { try result!.append(done) }
                pendingIsDefaultImage = false
                pending = try frameControl(word, half, p, body, canvas: result!.canvas)
            case "fdAT":
                guard frameCount > 0 else { continue }
                guard length >= 4, word(body) == sequence else {
                    throw ImageError(.badImageData, "APNG: fdAT out of sequence (expected \(sequence))")
                }
                sequence += 1
                guard pending != nil, !pendingIsDefaultImage else {
                    throw ImageError(.badImageData, "APNG: fdAT without its own frame control chunk")
                }
                pending!.data.append((body + 4)..<(body + length))
            case "IEND":
                if let done = pending { try result!.append(done) }
                pending = nil
                offset = p.count
            default:
                continue
            }
            if type == "IEND" { break }
        }
        guard frameCount > 0, let animation = result, !animation.frames.isEmpty else { return nil }
        guard animation.isTruncated || animation.frames.count == frameCount else {
            throw ImageError(
                .badImageData, "APNG: acTL announces \(frameCount) frames, the file has \(animation.frames.count)")
        }
        guard animation.frames.count <= frameCount else {
            throw ImageError(.badImageData, "APNG: more frames than acTL announces (\(frameCount))")
        }
        return animation
    }

    private mutating func append(_ frame: Frame) throws(ImageError) {
        guard !frame.data.isEmpty else { throw ImageError(.badImageData, "APNG: frame \(frames.count) has no data") }
        frames.append(frame)
    }

    private static func frameControl(
        _ word: (Int) -> Int, _ half: (Int) -> Int, _ p: UnsafeBufferPointer<UInt8>,
        _ body: Int, canvas: PixelSize
    ) throws(ImageError) -> Frame {
        let width = word(body + 4)
        let height = word(body + 8)
        let x = word(body + 12)
        let y = word(body + 16)
        let numerator = half(body + 20)
        let denominator = half(body + 22)
        let dispose = Int(p[body + 24])
        let blend = Int(p[body + 25])
        guard width > 0, height > 0, x + width <= canvas.width, y + height <= canvas.height, dispose <= 2, blend <= 1
        else {
            throw ImageError(
                .badImageData,
                "APNG: invalid fcTL (\(width)x\(height) at \(x),\(y), dispose \(dispose), blend \(blend))")
        }
        let milliseconds = numerator * 1000 / (denominator == 0 ? 100 : denominator)
        let info = ImageCoding.AnimationFrameInfo(
            x: x, y: y, width: width, height: height,
            disposal: [.none, .background, .previous][dispose], blend: [.source, .over][blend],
            duration: ImageFrame.browserDuration(milliseconds: milliseconds))
        return Frame(info: info, data: [])
    }
}

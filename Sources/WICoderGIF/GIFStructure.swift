#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// The block structure of a GIF, read without decoding any pixels: the logical screen, the frames (descriptor
/// offset, rectangle, palette size, graphic control) and the loop count.
///
/// Reading is resumable: `advance(_:)` consumes every record that is complete in the bytes given and stops at the
/// first incomplete one, so an incremental decoder calls it again as bytes arrive. It is also the cheap frame count
/// the pixel limit is checked against before anything is decoded.
struct GIFStructure {
    /// One image descriptor whose data is complete in the bytes read.
    struct Frame {
        /// Offset of the 0x2C byte.
        var descriptorOffset: Int
        var left: Int, top: Int, width: Int, height: Int
        var interlaced: Bool
        /// Entries of the palette the frame uses (local, else global; 0 when there is none).
        var paletteCount: Int
        var lzwMinimumCodeSize: Int
        /// Graphic control: delay in milliseconds, disposal method (0-7), transparent index.
        var delayMilliseconds = 0
        var disposal = 0
        var transparentIndex: Int?
    }

    /// The logical screen size (0 when the header is not read yet).
    private(set) var screen = PixelSize(width: 0, height: 0)
    /// Bytes of header, logical screen descriptor and global colour table.
    private(set) var headerLength = 0
    private(set) var globalPaletteCount = 0
    /// The first NETSCAPE2.0 / ANIMEXTS1.0 loop value (0 = forever, N = N repetitions), nil without one.
    private(set) var netscapeLoops: Int?
    /// The frames whose data is complete, zero-size frames left out.
    private(set) var frames: [Frame] = []
    /// A frame whose descriptor has arrived but not all its data (only while nothing follows it).
    private(set) var unfinishedFrame: Frame?
    /// Where the unfinished frame's last complete data sub-block ends (giflib decodes whole sub-blocks).
    private(set) var unfinishedDataEnd = 0
    /// The trailer was read, or a byte that starts no record (everything after it is ignored, as browsers do).
    private(set) var isFinished = false
    /// Bytes after the last complete record (a record cut short when the file ends there).
    private(set) var unreadBytes = 0
    private var offset = 0
    private var control: (delay: Int, disposal: Int, transparent: Int?)?

    var hasHeader: Bool { headerLength > 0 }

    /// Reads every complete record in `data` (the whole file so far, from its first byte) past what was read before.
    /// Throws `.badImageData` when the data is not a GIF.
    mutating func advance(_ data: Data) throws(ImageError) {
        let outcome: Result<Void, ImageError> = data.withUnsafeBytes { bytes in
            let input = bytes.bindMemory(to: UInt8.self)
            do throws(ImageError) {
                if headerLength == 0 { try readHeader(input) }
                while headerLength > 0, !isFinished, offset < input.count {
                    guard readRecord(input) else { break }
                }
                unreadBytes = isFinished ? 0 : input.count - offset
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try outcome.get()
    }

    private mutating func readHeader(_ p: UnsafeBufferPointer<UInt8>) throws(ImageError) {
        let signature: [UInt8] = Array("GIF8".utf8)
        for i in 0..<Swift.min(p.count, 4) where p[i] != signature[i] {
            throw ImageError(.badImageData, "GIF: not a GIF file (bad signature)")
        }
        if p.count > 5, (p[4] != 0x37 && p[4] != 0x39) || p[5] != 0x61 {
            throw ImageError(.badImageData, "GIF: unknown version")
        }
        guard p.count >= 13 else { return }
        let flags = Int(p[10])
        let palette = flags & 0x80 != 0 ? 1 << ((flags & 7) + 1) : 0
        guard p.count >= 13 + palette * 3 else { return }
        screen = PixelSize(width: Int(p[6]) | Int(p[7]) << 8, height: Int(p[8]) | Int(p[9]) << 8)
        globalPaletteCount = palette
        headerLength = 13 + palette * 3
        offset = headerLength
    }

    /// The offset just past the sub-blocks starting at `start` (past the 0 terminator), nil when they are incomplete.
    private static func skipSubBlocks(_ p: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let (end, complete) = walkSubBlocks(p, from: start)
        return complete ? end : nil
    }

    /// Walks sub-blocks from `start`: past the terminator (true), or the end of the last complete one (false).
    private static func walkSubBlocks(_ p: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int, Bool) {
        var position = start
        while position < p.count {
            let length = Int(p[position])
            if length == 0 { return (position + 1, true) }
            guard position + 1 + length <= p.count else { break }
            position += 1 + length
        }
        return (position, false)
    }

    /// Reads the record at `offset`; false when it is incomplete (wait for more bytes).
    private mutating func readRecord(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        switch p[offset] {
        case 0x21:
            guard offset + 2 <= p.count, let end = Self.skipSubBlocks(p, from: offset + 2) else { return false }
            readExtension(p, label: p[offset + 1], body: offset + 2)
            offset = end
            return true
        case 0x2C:
            return readImage(p)
        case 0x3B:
            isFinished = true
            return true
        default:
            isFinished = true  // a byte that starts no record: the rest is ignored, as browsers do
            return true
        }
    }

    private mutating func readExtension(_ p: UnsafeBufferPointer<UInt8>, label: UInt8, body: Int) {
        let length = Int(p[body])
        if label == 0xF9, length >= 4 {
            let packed = Int(p[body + 1])
            control = (
                delay: (Int(p[body + 2]) | Int(p[body + 3]) << 8) * 10, disposal: (packed >> 2) & 7,
                transparent: packed & 1 != 0 ? Int(p[body + 4]) : nil
            )
        } else if label == 0xFF, length == 11, netscapeLoops == nil {
            let identifier = String(decoding: UnsafeBufferPointer(rebasing: p[(body + 1)..<(body + 12)]), as: UTF8.self)
            let next = body + 12
            if identifier == "NETSCAPE2.0" || identifier == "ANIMEXTS1.0", Int(p[next]) >= 3, p[next + 1] == 1 {
                netscapeLoops = Int(p[next + 2]) | Int(p[next + 3]) << 8
            }
        }
    }

    private mutating func readImage(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = offset
        guard start + 10 <= p.count else { return false }
        let packed = Int(p[start + 9])
        let local = packed & 0x80 != 0 ? 1 << ((packed & 7) + 1) : 0
        let codeSizeAt = start + 10 + local * 3
        guard codeSizeAt < p.count else { return false }
        func word(_ at: Int) -> Int { Int(p[at]) | Int(p[at + 1]) << 8 }
        var frame = Frame(
            descriptorOffset: start, left: word(start + 1), top: word(start + 3), width: word(start + 5),
            height: word(start + 7), interlaced: packed & 0x40 != 0,
            paletteCount: local > 0 ? local : globalPaletteCount, lzwMinimumCodeSize: Int(p[codeSizeAt]))
        if let control {
            frame.delayMilliseconds = control.delay
            frame.disposal = control.disposal
            frame.transparentIndex = control.transparent
        }
        let (end, complete) = Self.walkSubBlocks(p, from: codeSizeAt + 1)
        guard complete else {
            unfinishedFrame = frame
            unfinishedDataEnd = end
            return false
        }
        unfinishedFrame = nil
        control = nil
        if frame.width > 0 && frame.height > 0 { frames.append(frame) }
        offset = end
        return true
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
import WICoderSupport
private import CGIF

/// Decodes one GIF frame's pixels with giflib, record by record.
///
/// giflib reads through a memory input function over a virtual stream: the file's header, logical screen and
/// global colour table, then the bytes from the frame's image descriptor on. So frame N is decoded without
/// touching frames 0..<N, and nothing ever goes through `DGifSlurp` (which gives up on files browsers show).
enum GIFFrameDecoder {
    /// What a frame whose data ends or breaks before its last row gives.
    enum ShortData {
        /// The rows decoded so far, the rest transparent; `.badImageData` when not one row decoded (the first
        /// frame: an image with nothing decoded is no image).
        case keepRowsIfAny
        /// The rows decoded so far, the rest transparent, even none (a later frame then leaves the canvas as it
        /// is), as browsers show it.
        case keepRows
    }

    /// Frame `frame`'s pixels inside `clip` (the frame's rectangle clipped to the canvas, in canvas coordinates):
    /// straight RGBA8 of `clip`'s size, transparent where the frame's transparent index (or an index beyond its
    /// palette) is, and whether every row arrived. Errors as for `draw`.
    static func decode(
        _ data: Data, structure: GIFStructure, frame: GIFStructure.Frame, clip: ImageCoding.AnimationFrameInfo,
        shortData: ShortData
    ) throws(ImageError) -> (pixels: PixelBuffer, isComplete: Bool) {
        var pixels = try PixelBuffer(width: clip.width, height: clip.height, format: .rgba8)
        let complete = try draw(
            data, structure: structure, frame: frame, clip: clip, onto: &pixels,
            origin: (clip.x, clip.y), shortData: shortData)
        return (pixels, complete)
    }

    /// Writes frame `frame`'s palette colours inside `clip` (canvas coordinates) straight into `target`, an RGBA8
    /// buffer whose top-left pixel is canvas point `origin`: one pass, no frame buffer. Pixels with the transparent
    /// index (or an index beyond the palette) are left as they are, which is GIF's "over" blend on binary alpha.
    /// Returns whether every row arrived; data that ends or breaks inside the frame is handled as `shortData` says
    /// (the rows kept return false).
    static func draw(
        _ data: Data, structure: GIFStructure, frame: GIFStructure.Frame, clip: ImageCoding.AnimationFrameInfo,
        onto target: inout PixelBuffer, origin: (x: Int, y: Int), shortData: ShortData
    )
        throws(ImageError) -> Bool
    {
        precondition(
            target.format == .rgba8 && clip.x >= origin.x && clip.y >= origin.y
                && clip.x + clip.width <= origin.x + target.width && clip.y + clip.height <= origin.y + target.height,
            "GIF frame \(clip) outside the target")
        let handle = try GIFHandle(data: data, headerLength: structure.headerLength, jumpTo: frame.descriptorOffset)
        let rowsRead = try handle.readFrame(into: &target, origin: origin, frame: frame, clip: clip)
        let totalRows = frame.height
        if rowsRead.count == totalRows { return true }
        guard shortData == .keepRows || rowsRead.count > 0 else {
            throw ImageError(
                .badImageData,
                "GIF: frame data broken or truncated after \(rowsRead.count) of \(totalRows) rows"
                    + (rowsRead.message.map { " (\($0))" } ?? ""))
        }
        return false
    }
}

/// The bytes giflib reads: `data[0..<headerLength]`, then `data[jumpTo...]`.
private final class GIFInput {
    let data: Data
    let headerLength: Int
    let jumpTo: Int
    var position = 0

    init(data: Data, headerLength: Int, jumpTo: Int) {
        self.data = data
        self.headerLength = headerLength
        self.jumpTo = jumpTo
    }

    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        var copied = 0
        while copied < count {
            let source = position < headerLength ? position : jumpTo + position - headerLength
            let limit = position < headerLength ? headerLength : data.count
            let available = Swift.min(count - copied, limit - source)
            guard available > 0 else { break }
            data.withUnsafeBytes { bytes in
                (buffer + copied).update(from: bytes.bindMemory(to: UInt8.self).baseAddress! + source, count: available)
            }
            copied += available
            position += available
        }
        return copied
    }
}

/// Owns one giflib decoder (`GifFileType`), closed in deinit.
private final class GIFHandle {
    private let gif: UnsafeMutablePointer<GifFileType>
    private let input: GIFInput

    init(data: Data, headerLength: Int, jumpTo: Int) throws(ImageError) {
        let input = GIFInput(data: data, headerLength: headerLength, jumpTo: jumpTo)
        var error: Int32 = 0
        let reader: InputFunc = { gif, buffer, count in
            guard let gif, let buffer, count > 0, let user = gif.pointee.UserData else { return 0 }
            return Int32(
                Unmanaged<GIFInput>.fromOpaque(user).takeUnretainedValue().read(into: buffer, count: Int(count)))
        }
        guard let gif = DGifOpen(Unmanaged.passUnretained(input).toOpaque(), reader, &error) else {
            throw GIFErrors.error(error, context: "open")
        }
        self.gif = gif
        self.input = input
    }

    deinit {
        var error: Int32 = 0
        _ = DGifCloseFile(gif, &error)
    }

    /// Reads the image record the stream jumps to, writing its opaque pixels inside `clip` into `pixels` (whose
    /// top-left pixel is canvas point `origin`); the rows read, and giflib's message if it stopped.
    func readFrame(
        into pixels: inout PixelBuffer, origin: (x: Int, y: Int), frame: GIFStructure.Frame,
        clip: ImageCoding.AnimationFrameInfo
    ) throws(ImageError) -> (count: Int, message: String?) {
        var record = UNDEFINED_RECORD_TYPE
        guard DGifGetRecordType(gif, &record) == GIF_OK, record == IMAGE_DESC_RECORD_TYPE,
            DGifGetImageDesc(gif) == GIF_OK
        else {
            return (0, GIFErrors.message(gif.pointee.Error))
        }
        let palette = makePalette(transparentIndex: frame.transparentIndex)
        let width = Int(gif.pointee.Image.Width)
        let height = Int(gif.pointee.Image.Height)
        var line = [UInt8](repeating: 0, count: width)
        let rowBytes = pixels.bytesPerRow
        let firstColumn = clip.x - frame.left
        let columns = clip.width
        let targetColumn = (clip.x - origin.x) * 4
        var rowsRead = 0
        let failure: String? = try pixels.withUnsafeMutableBytes { out in
            palette.withUnsafeBufferPointer { table in
                line.withUnsafeMutableBufferPointer { line in
                    for sequence in 0..<height {
                        // A cancelled request's frame stops within 64 rows (giflib decodes a row per call).
                        if sequence & 63 == 0, WorkerPool.isCancelled { return Self.cancelled }
                        guard DGifGetLine(gif, line.baseAddress, Int32(width)) == GIF_OK else {
                            return GIFErrors.message(gif.pointee.Error)
                        }
                        rowsRead += 1
                        let canvasY =
                            frame.top + (frame.interlaced ? Self.interlacedRow(sequence, height: height) : sequence)
                        guard canvasY >= clip.y, canvasY < clip.y + clip.height else { continue }
                        let row = out.baseAddress! + (canvasY - origin.y) * rowBytes + targetColumn
                        let indices = line.baseAddress! + firstColumn
                        for i in 0..<columns {
                            // Opaque entries have alpha 255, so only transparent ones are 0.
                            let colour = table[Int(indices[i])]
                            if colour != 0 { row.storeBytes(of: colour, toByteOffset: i * 4, as: UInt32.self) }
                        }
                    }
                    return nil
                }
            }
        }
        if failure == Self.cancelled { throw ImageError(.cancelled, "GIF: \(Self.cancelled)") }
        return (rowsRead, failure)
    }

    /// The row loop's answer when the pool job decoding the frame was cancelled.
    private static let cancelled = "the decode was cancelled"

    /// 256 RGBA8 entries as UInt32 in memory order: the frame's palette (local, else global), transparent black for
    /// the transparent index and indices beyond the palette.
    private func makePalette(transparentIndex: Int?) -> [UInt32] {
        var table = [UInt32](repeating: 0, count: 256)
        guard let map = gif.pointee.Image.ColorMap ?? gif.pointee.SColorMap, let colors = map.pointee.Colors else {
            return table
        }
        for i in 0..<Swift.min(256, Int(map.pointee.ColorCount)) where i != transparentIndex {
            let c = colors[i]
            let bytes: (UInt8, UInt8, UInt8, UInt8) = (c.Red, c.Green, c.Blue, 255)
            table[i] = withUnsafeBytes(of: bytes) { $0.load(as: UInt32.self) }
        }
        return table
    }

    /// The frame row the `sequence`-th stored row of an interlaced frame belongs to (passes 0/8, 4/8, 2/4, 1/2).
    private static func interlacedRow(_ sequence: Int, height: Int) -> Int {
        var index = sequence
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            let rows = start < height ? (height - start + step - 1) / step : 0
            if index < rows { return start + index * step }
            index -= rows
        }
        return height - 1
    }
}

/// The one place giflib's error codes become `ImageError`s.
enum GIFErrors {
    static func message(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    }

    static func error(_ code: Int32, context: String) -> ImageError {
        switch code {
        case D_GIF_ERR_NOT_ENOUGH_MEM, E_GIF_ERR_NOT_ENOUGH_MEM:
            return ImageError(.outOfMemory, "GIF \(context): \(message(code))")
        case E_GIF_ERR_OPEN_FAILED...E_GIF_ERR_NOT_WRITEABLE:
            return ImageError(.encodingFailed, "GIF \(context): \(message(code))")
        default:
            return ImageError(.badImageData, "GIF \(context): \(message(code))")
        }
    }
}

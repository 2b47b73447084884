import WICore

/// Follows an RLE8, RLE4 or OS/2 RLE24 stream (encoded runs, absolute runs, end of line, delta, end of bitmap) into
/// RGBA8. RLE24 is RLE8 with a BGR triple where RLE8 has a palette index: an encoded run is a count and 3 bytes,
/// an absolute run 3 bytes a pixel (padded to 16 bits like the others).
///
/// Positions advance as Pillow's decoder advances them (an encoded run is clipped at the row's end, an absolute run
/// may wrap into the next row), so files Pillow decodes give the same pixels, except that pixels the stream skips
/// stay transparent (browsers) where Pillow paints palette entry 0.
struct RunLengthDecoder {
    let header: BMPHeader
    let reader: ByteReader

    /// Decodes into `out`; returns whether the stream ended properly (end-of-bitmap code or every pixel written)
    /// rather than with the data.
    func decode(into out: UnsafeMutableRawBufferPointer, bytesPerRow: Int) -> Bool {
        let width = header.width
        let height = header.height
        let total = width * height
        let rle4 = header.compression == .rle4
        let rle24 = header.compression == .rle24
        let bytes = reader.bytes
        var offset = header.pixelOffset
        var position = 0
        var x = 0
        guard offset >= 0 else { return false }
        return header.palette.withUnsafeBufferPointer { palette -> Bool in
            /// Writes an RGBA8 pixel (red in the low byte) at the current position.
            func put(color: UInt32) {
                guard position < total else { return }
                let row = position / width
                let column = position % width
                let y = header.topDown ? row : height - 1 - row
                out.storeBytes(of: color.littleEndian, toByteOffset: y * bytesPerRow + column * 4, as: UInt32.self)
                position += 1
            }
            func put(_ index: Int) { put(color: index < palette.count ? palette[index] : 0xFF00_0000) }
            /// The opaque colour of the BGR triple at `at`.
            func bgr(_ at: Int) -> UInt32 {
                UInt32(bytes[at + 2]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at]) << 16 | 0xFF00_0000
            }
            while position < total {
                guard offset + 2 <= bytes.count else { return false }
                let count = Int(bytes[offset])
                let value = Int(bytes[offset + 1])
                if count > 0 {
                    let run = Swift.min(count, Swift.max(0, width - x))
                    if rle24 {
                        guard offset + 4 <= bytes.count else { return false }
                        let color = bgr(offset + 1)
                        for _ in 0..<run { put(color: color) }
                        offset += 4
                    } else {
                        for i in 0..<run { put(rle4 ? (i % 2 == 0 ? value >> 4 : value & 0x0F) : value) }
                        offset += 2
                    }
                    x += run
                    continue
                }
                offset += 2
                switch value {
                case 0:
                    if position % width != 0 { position = Swift.min(total, position + width - position % width) }
                    x = 0
                case 1:
                    return true
                case 2:
                    guard offset + 2 <= bytes.count else { return false }
                    let right = Int(bytes[offset])
                    let up = Int(bytes[offset + 1])
                    offset += 2
                    position = Swift.min(total, position + right + up * width)
                    x = position % width
                default:
                    let pixels = Swift.min(total - position, value)
                    let needed = rle4 ? (pixels + 1) / 2 : rle24 ? pixels * 3 : pixels
                    let available = Swift.min(needed, bytes.count - offset)
                    if rle24 {
                        for i in 0..<(available / 3) { put(color: bgr(offset + i * 3)) }
                    } else {
                        for i in 0..<(rle4 ? Swift.min(pixels, available * 2) : available) {
                            let byte = Int(bytes[offset + (rle4 ? i / 2 : i)])
                            put(rle4 ? (i % 2 == 0 ? byte >> 4 : byte & 0x0F) : byte)
                        }
                    }
                    offset += available
                    guard available == needed else { return false }
                    x += value
                    // Absolute runs are padded to a 16-bit boundary.
                    if needed % 2 == 1 { offset += 1 }
                }
            }
            return true
        }
    }
}

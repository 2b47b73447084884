import Foundation

/// Writes small BMP, ICO and CUR files byte by byte for the tests, so each case states its exact layout.
enum BMPBuilder {
    static func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func u32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    /// A BITMAPINFOHEADER-family header of `size` bytes (40, 52, 56, 108, 124), masks at 40... when it has room.
    static func infoHeader(
        size: Int = 40, width: Int, height: Int, bitCount: Int, compression: Int = 0,
        colorsUsed: Int = 0, masks: [Int] = []
    ) -> [UInt8] {
        var h = u32(size) + u32(width) + u32(height) + u16(1) + u16(bitCount) + u32(compression) + u32(0)
        h += u32(2835) + u32(2835) + u32(colorsUsed) + u32(0)
        if size > 40 {
            for mask in masks.prefix((size - 40) / 4) { h += u32(mask) }
        }
        return h + [UInt8](repeating: 0, count: size - h.count)
    }

    /// A BMP file: file header, `dib` (header plus masks and palette as given), then `pixels`.
    static func file(dib: [UInt8], pixels: [UInt8]) -> Data {
        let offset = 14 + dib.count
        return Data([0x42, 0x4D] + u32(offset + pixels.count) + u32(0) + u32(offset) + dib + pixels)
    }

    /// Palette entries B, G, R, 0 from RGB triples.
    static func palette(_ colors: [(UInt8, UInt8, UInt8)], entrySize: Int = 4) -> [UInt8] {
        colors.flatMap { entrySize == 4 ? [$0.2, $0.1, $0.0, 0] : [$0.2, $0.1, $0.0] }
    }

    /// Rows padded to 4 bytes.
    static func padded(_ rows: [[UInt8]]) -> [UInt8] {
        rows.flatMap { $0 + [UInt8](repeating: 0, count: (4 - $0.count % 4) % 4) }
    }

    /// An ICO (type 1) or CUR (type 2) file holding `entries` (directory width, height, bit count, image bytes).
    static func icon(type: Int = 1, _ entries: [(width: Int, height: Int, bitCount: Int, bytes: [UInt8])]) -> Data {
        var out = u16(0) + u16(type) + u16(entries.count)
        var offset = 6 + 16 * entries.count
        for entry in entries {
            out += [UInt8(entry.width & 0xFF), UInt8(entry.height & 0xFF), 0, 0]
            out += type == 1 ? u16(1) + u16(entry.bitCount) : u16(3) + u16(4)  // CUR: hotspot 3, 4
            out += u32(entry.bytes.count) + u32(offset)
            offset += entry.bytes.count
        }
        for entry in entries { out += entry.bytes }
        return Data(out)
    }

    /// An icon's BMP entry: 40-byte header with doubled height, `xor` pixel bytes, then the AND mask rows.
    static func iconBitmap(
        width: Int, height: Int, bitCount: Int, palette: [UInt8] = [], xor: [UInt8],
        and mask: [UInt8]
    ) -> [UInt8] {
        infoHeader(width: width, height: height * 2, bitCount: bitCount) + palette + xor + mask
    }
}

import WICore

/// A bitmap's DIB header, colour masks and palette, read from a BMP file or an ICO/CUR entry, with every size and
/// offset checked against the data.
///
/// Header sizes: 12 (BITMAPCOREHEADER, OS/2 1.x), 40 (BITMAPINFOHEADER), 52 and 56 (Adobe's V2/V3), 64 (OS/2 2.x),
/// 108 (V4) and 124 (V5). Masks come from the header when it holds them (52 and up), else from the 12 or 16 bytes
/// after a 40-byte header (BI_BITFIELDS, BI_ALPHABITFIELDS).
struct BMPHeader {
    enum Compression: Equatable { case none, rle8, rle4, rle24, bitfields }

    var headerSize: Int
    var width: Int
    var height: Int
    /// Rows stored top row first (negative height in the file).
    var topDown: Bool
    var bitCount: Int
    var compression: Compression
    /// Palette entries as RGBA bytes in memory order (R, G, B, A=255), for 1/2/4/8 bits per pixel.
    var palette: [UInt32]
    /// The channel masks of 16/24/32-bit pixels.
    var masks: ChannelMasks
    /// Where the pixel data starts (absolute offset in the data).
    var pixelOffset: Int

    /// Bytes per stored row, padded to 4 bytes.
    var stride: Int { ((width * bitCount + 31) / 32) * 4 }

    /// Reads the header at `dibOffset`. `fileOffset` is a BMP file header's bfOffBits (nil inside an ICO, where the
    /// pixels follow the palette); `isIcon` makes 32-bit BI_RGB pixels carry alpha in their fourth byte, as icons do.
    static func read(_ r: ByteReader, dibOffset: Int, fileOffset: Int?, isIcon: Bool) throws(ImageError) -> BMPHeader {
        let size = Int(try r.u32(dibOffset, "header size"))
        guard [12, 40, 52, 56, 64, 108, 124].contains(size) else {
            throw ImageError(.badImageData, "BMP: unknown DIB header size \(size)")
        }
        guard r.contains(dibOffset, size) else {
            throw ImageError(.badImageData, "BMP: the file ends inside its \(size)-byte header")
        }
        var width: Int
        var height: Int
        var bitCount: Int
        var rawCompression: UInt32 = 0
        var colorsUsed = 0
        if size == 12 {
            width = try r.u16(dibOffset + 4, "width")
            height = try r.u16(dibOffset + 6, "height")
            bitCount = try r.u16(dibOffset + 10, "bit count")
        } else {
            width = try r.i32(dibOffset + 4, "width")
            height = try r.i32(dibOffset + 8, "height")
            bitCount = try r.u16(dibOffset + 14, "bit count")
            rawCompression = try r.u32(dibOffset + 16, "compression")
            colorsUsed = Int(try r.u32(dibOffset + 32, "colours used"))
        }
        let topDown = height < 0
        height = abs(height)
        guard width > 0, height > 0 else { throw ImageError(.badImageData, "BMP: invalid size \(width)x\(height)") }
        guard [1, 2, 4, 8, 16, 24, 32].contains(bitCount) else {
            throw ImageError(.badImageData, "BMP: unsupported bit count \(bitCount)")
        }
        let compression = try Self.compression(rawCompression, headerSize: size, bitCount: bitCount)
        var afterHeader = dibOffset + size
        var masks = ChannelMasks.defaults(bitCount: bitCount, alphaInFourthByte: isIcon)
        if compression == .bitfields {
            let withAlpha = rawCompression == 6
            let maskBase = size >= 52 ? dibOffset + 40 : afterHeader
            let red = try r.u32(maskBase, "red mask")
            let green = try r.u32(maskBase + 4, "green mask")
            let blue = try r.u32(maskBase + 8, "blue mask")
            let alpha = size >= 56 || withAlpha ? try r.u32(maskBase + 12, "alpha mask") : 0
            if size < 52 { afterHeader += withAlpha ? 16 : 12 }
            if red | green | blue != 0 {
                masks = try ChannelMasks(red: red, green: green, blue: blue, alpha: alpha)
            }
        }
        var palette: [UInt32] = []
        var paletteEnd = afterHeader
        if bitCount <= 8 {
            let entrySize = size == 12 ? 3 : 4
            let declared = colorsUsed > 0 ? colorsUsed : 1 << bitCount
            let usable = Swift.min(declared, 1 << bitCount)
            palette.reserveCapacity(usable)
            for index in 0..<usable {
                let at = afterHeader + index * entrySize
                guard r.contains(at, 3) else { break }
                let b = UInt32(r.bytes[at])
                let g = UInt32(r.bytes[at + 1])
                let red = UInt32(r.bytes[at + 2])
                palette.append(red | g << 8 | b << 16 | 0xFF00_0000)
            }
            let (bytes, overflow) = declared.multipliedReportingOverflow(by: entrySize)
            paletteEnd = overflow ? Int.max : afterHeader.addingReportingOverflow(bytes).partialValue
        }
        var pixelOffset = paletteEnd
        if let fileOffset, fileOffset > 0 {
            // A bfOffBits pointing just past the header of a paletted file forgot the palette (as Pillow reads it).
            pixelOffset = bitCount <= 8 && fileOffset == afterHeader ? paletteEnd : fileOffset
        }
        return BMPHeader(
            headerSize: size, width: width, height: height, topDown: topDown, bitCount: bitCount,
            compression: compression, palette: palette, masks: masks, pixelOffset: pixelOffset)
    }

    private static func compression(_ raw: UInt32, headerSize: Int, bitCount: Int) throws(ImageError) -> Compression {
        switch raw {
        case 0: return .none
        case 1 where bitCount == 8: return .rle8
        case 2 where bitCount == 4: return .rle4
        case 1, 2: throw ImageError(.badImageData, "BMP: RLE compression \(raw) with \(bitCount) bits per pixel")
        case 4 where headerSize == 64 && bitCount == 24: return .rle24
        case 4 where headerSize == 64:
            throw ImageError(.badImageData, "BMP: OS/2 RLE24 compression with \(bitCount) bits per pixel")
        case 3 where headerSize == 64:
            throw ImageError(.unsupportedFormat, "BMP: OS/2 compression 3 (Huffman 1D) is not supported")
        case 3, 6:
            guard bitCount >= 16 else {
                throw ImageError(.badImageData, "BMP: bitfields with \(bitCount) bits per pixel")
            }
            return .bitfields
        case 4, 5: throw ImageError(.unsupportedFormat, "BMP: embedded \(raw == 4 ? "JPEG" : "PNG") is not supported")
        default: throw ImageError(.badImageData, "BMP: unknown compression \(raw)")
        }
    }
}

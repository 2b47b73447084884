import WICore

/// Decodes a bitmap's pixels (after `BMPHeader.read`) into straight-alpha RGBA8, upright.
///
/// Uncompressed rows are decoded as far as the data holds whole rows (the rest stays transparent and the result is
/// incomplete); RLE streams are followed to their end-of-bitmap code, pixels they skip (delta, early end of line or
/// bitmap) stay transparent as browsers show them. An alpha channel whose every value is 0 is treated as opaque.
struct BitmapDecoder {
    struct Result {
        var pixels: PixelBuffer
        /// Every row arrived (uncompressed) or the RLE stream ended properly.
        var complete: Bool
        /// The pixels' alpha came from the file's alpha channel, and it was not all zero.
        var usedAlphaChannel: Bool
    }

    let header: BMPHeader
    let reader: ByteReader

    func decode() throws(ImageError) -> Result {
        var pixels = try PixelBuffer(width: header.width, height: header.height, format: .rgba8)
        let bytesPerRow = pixels.bytesPerRow
        let (complete, usedAlpha) = try pixels.withUnsafeMutableBytes { (out) throws(ImageError) -> (Bool, Bool) in
            switch header.compression {
            case .rle8, .rle4, .rle24:
                return (
                    RunLengthDecoder(header: header, reader: reader).decode(into: out, bytesPerRow: bytesPerRow),
                    false
                )
            case .none, .bitfields:
                return try decodeRows(into: out, bytesPerRow: bytesPerRow)
            }
        }
        return Result(pixels: pixels, complete: complete, usedAlphaChannel: usedAlpha)
    }

    /// The output row of stored row `row`.
    private func outputRow(_ row: Int) -> Int { header.topDown ? row : header.height - 1 - row }

    private func decodeRows(into out: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws(ImageError)
        -> (complete: Bool, usedAlpha: Bool)
    {
        let width = header.width
        let stride = header.stride
        let used = (width * header.bitCount + 7) / 8
        guard header.pixelOffset >= 0, header.pixelOffset < reader.count else {
            throw ImageError(.badImageData, "BMP: pixel data offset \(header.pixelOffset) is outside the file")
        }
        var rows = 0
        var alphaSeen: UInt32 = 0
        guard let base = reader.bytes.baseAddress, let output = out.baseAddress else {
            throw ImageError(.badImageData, "BMP: no pixel data")
        }
        // Every index of 1 to 8 bits has an entry: those past the file's palette are opaque black.
        let palette =
            header.palette.map(\.littleEndian)
            + [UInt32](repeating: UInt32(0xFF00_0000).littleEndian, count: Swift.max(0, 256 - header.palette.count))
        // 16-bit pixels of a large image: one table lookup per pixel instead of three scalings.
        let table = header.bitCount == 16 && width * header.height >= 16_384 ? sixteenBitTable() : []
        palette.withUnsafeBufferPointer { palette in
            table.withUnsafeBufferPointer { table in
                while rows < header.height {
                    let start = header.pixelOffset + rows * stride
                    guard reader.contains(start, used) else { break }
                    let source = (base + start).assumingMemoryBound(to: UInt8.self)
                    let target = output + outputRow(rows) * bytesPerRow
                    if header.bitCount <= 8 {
                        decodeIndexed(source, target, width: width, palette: palette)
                    } else if !table.isEmpty {
                        for x in 0..<width {
                            let color = table[Int(source[x * 2]) | Int(source[x * 2 + 1]) << 8]
                            target.storeBytes(of: color, toByteOffset: x * 4, as: UInt32.self)
                            alphaSeen |= color
                        }
                    } else {
                        alphaSeen |= decodeDirect(source, target, width: width)
                    }
                    rows += 1
                }
            }
        }
        if !table.isEmpty { alphaSeen = header.masks.hasAlpha ? UInt32(littleEndian: alphaSeen) >> 24 : 0 }
        guard rows > 0 else { throw ImageError(.badImageData, "BMP: the file ends before the first row of pixels") }
        let hasAlpha = header.bitCount > 8 && header.masks.hasAlpha
        if hasAlpha && alphaSeen == 0 {
            // An alpha channel with nothing in it: browsers show such files opaque.
            for row in 0..<rows {
                let target = output + outputRow(row) * bytesPerRow
                for x in 0..<width { target.storeBytes(of: 255, toByteOffset: x * 4 + 3, as: UInt8.self) }
            }
        }
        return (rows == header.height, hasAlpha && alphaSeen != 0)
    }

    private func decodeIndexed(
        _ source: UnsafePointer<UInt8>, _ target: UnsafeMutableRawPointer, width: Int,
        palette: UnsafeBufferPointer<UInt32>
    ) {
        let bits = header.bitCount
        if bits == 8 {
            for x in 0..<width { target.storeBytes(of: palette[Int(source[x])], toByteOffset: x * 4, as: UInt32.self) }
            return
        }
        let perByte = 8 / bits
        let valueMask = (1 << bits) - 1
        var x = 0
        var byteIndex = 0
        while x < width {
            let byte = Int(source[byteIndex])
            byteIndex += 1
            var shift = 8 - bits
            for _ in 0..<Swift.min(perByte, width - x) {
                target.storeBytes(of: palette[(byte >> shift) & valueMask], toByteOffset: x * 4, as: UInt32.self)
                shift -= bits
                x += 1
            }
        }
    }

    /// The RGBA (memory order) of every 16-bit pixel value.
    private func sixteenBitTable() -> [UInt32] {
        let masks = header.masks
        return (0..<65536).map { (value: UInt32) -> UInt32 in
            let alpha = masks.hasAlpha ? masks.alpha.value(value) : 255
            let rgba =
                masks.red.value(value) | masks.green.value(value) << 8 | masks.blue.value(value) << 16
                | (alpha & 0xFF) << 24
            return rgba.littleEndian
        }
    }

    /// One row of 16/24/32-bit pixels; returns the OR of the alpha values written (0 when there is no alpha mask).
    private func decodeDirect(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutableRawPointer, width: Int) -> UInt32 {
        let masks = header.masks
        let out = target.assumingMemoryBound(to: UInt8.self)
        var alphaSeen: UInt32 = 0
        if masks.isBGRA && header.bitCount >= 24 {
            let step = header.bitCount / 8
            let hasAlpha = masks.hasAlpha
            for x in 0..<width {
                let s = source + x * step
                let o = out + x * 4
                o[0] = s[2]
                o[1] = s[1]
                o[2] = s[0]
                let a = hasAlpha ? s[3] : 255
                o[3] = a
                alphaSeen |= UInt32(a)
            }
            return hasAlpha ? alphaSeen : 0
        }
        for x in 0..<width {
            let value: UInt32
            switch header.bitCount {
            case 16: value = UInt32(source[x * 2]) | UInt32(source[x * 2 + 1]) << 8
            case 24: value = UInt32(source[x * 3]) | UInt32(source[x * 3 + 1]) << 8 | UInt32(source[x * 3 + 2]) << 16
            default:
                value =
                    UInt32(source[x * 4]) | UInt32(source[x * 4 + 1]) << 8 | UInt32(source[x * 4 + 2]) << 16
                    | UInt32(source[x * 4 + 3]) << 24
            }
            let o = out + x * 4
            o[0] = UInt8(truncatingIfNeeded: masks.red.value(value))
            o[1] = UInt8(truncatingIfNeeded: masks.green.value(value))
            o[2] = UInt8(truncatingIfNeeded: masks.blue.value(value))
            if masks.hasAlpha {
                let a = masks.alpha.value(value)
                o[3] = UInt8(truncatingIfNeeded: a)
                alphaSeen |= a
            } else {
                o[3] = 255
            }
        }
        return alphaSeen
    }
}

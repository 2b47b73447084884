extension PixelBuffer {
    /// This buffer in another pixel format (a new buffer; `self` when the format already matches).
    ///
    /// 16 to 8 bits rounds (v * 255 / 65535), 8 to 16 bits is exact (v * 257); premultiplying rounds, and
    /// colour under zero alpha becomes 0 when unpremultiplying.
    public func converted(to target: PixelFormat) throws(ImageError) -> PixelBuffer {
        if target == format { return self }
        var output = try PixelBuffer(width: width, height: height, format: target, zeroed: false)
        let source = self
        let sourceMaximum = format.bitsPerComponent == 8 ? 255 : 65535
        let targetMaximum = target.bitsPerComponent == 8 ? 255 : 65535
        let outputRowBytes = output.bytesPerRow
        try output.withUnsafeMutableBytes { out in
            source.withUnsafeBytes { input in
                for y in 0..<height {
                    let inRow = input.baseAddress! + y * source.bytesPerRow
                    let outRow = out.baseAddress! + y * outputRowBytes
                    for x in 0..<width {
                        var c = Self.load(inRow, x, source.format.bitsPerComponent)
                        if source.format.isPremultiplied && !target.isPremultiplied {
                            for i in 0..<3 { c[i] = PixelMath.unpremultiply(c[i], alpha: c[3], maximum: sourceMaximum) }
                        }
                        if sourceMaximum != targetMaximum {
                            for i in 0..<4 { c[i] = targetMaximum == 255 ? PixelMath.to8(c[i]) : PixelMath.to16(c[i]) }
                        }
                        if target.isPremultiplied && !source.format.isPremultiplied {
                            for i in 0..<3 { c[i] = PixelMath.premultiply(c[i], alpha: c[3], maximum: targetMaximum) }
                        }
                        Self.store(c, outRow, x, target.bitsPerComponent)
                    }
                }
            }
        }
        return output
    }

    /// Whether every pixel is fully opaque (at once for a coder's opaque-by-construction pixels).
    ///
    /// A row's pixels are ANDed together 64 bits at a time (two 8-bit pixels, or one 16-bit pixel, per word) and
    /// its alpha checked once: the AND keeps every alpha bit only when every alpha is the maximum.
    public var isOpaque: Bool {
        if isKnownOpaque { return true }
        // Little-endian RGBA: alpha is the top byte of each 32-bit pixel, the top half-word of each 64-bit one.
        let alpha: UInt64 = format.bitsPerComponent == 8 ? 0xFF00_0000_FF00_0000 : 0xFFFF_0000_0000_0000
        let rowBytes = width * format.bytesPerPixel
        return withUnsafeBytes { bytes in
            for y in 0..<height {
                let row = bytes.baseAddress! + y * bytesPerRow
                var all = UInt64.max
                var offset = 0
                while offset + 8 <= rowBytes {
                    all &= row.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    offset += 8
                }
                if offset < rowBytes {  // an odd 8-bit pixel: its alpha is the top byte of its 32 bits
                    all &= UInt64(row.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) << 32 | 0xFFFF_FFFF
                }
                if all & alpha != alpha { return false }
            }
            return true
        }
    }

    @inline(__always)
    private static func load(_ row: UnsafeRawPointer, _ x: Int, _ bits: Int) -> SIMD4<Int> {
        if bits == 8 {
            let p = row.assumingMemoryBound(to: UInt8.self) + x * 4
            return SIMD4(Int(p[0]), Int(p[1]), Int(p[2]), Int(p[3]))
        }
        let p = row.assumingMemoryBound(to: UInt16.self) + x * 4
        return SIMD4(Int(p[0]), Int(p[1]), Int(p[2]), Int(p[3]))
    }

    @inline(__always)
    private static func store(_ c: SIMD4<Int>, _ row: UnsafeMutableRawPointer, _ x: Int, _ bits: Int) {
        if bits == 8 {
            let p = row.assumingMemoryBound(to: UInt8.self) + x * 4
            for i in 0..<4 { p[i] = UInt8(truncatingIfNeeded: c[i]) }
        } else {
            let p = row.assumingMemoryBound(to: UInt16.self) + x * 4
            for i in 0..<4 { p[i] = UInt16(truncatingIfNeeded: c[i]) }
        }
    }
}

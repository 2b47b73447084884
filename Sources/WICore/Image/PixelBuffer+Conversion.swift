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

    /// Whether every pixel is fully opaque.
    public var isOpaque: Bool {
        withUnsafeBytes { bytes in
            for y in 0..<height {
                let row = bytes.baseAddress! + y * bytesPerRow
                if format.bitsPerComponent == 8 {
                    let p = row.assumingMemoryBound(to: UInt8.self)
                    for x in 0..<width where p[x * 4 + 3] != 255 { return false }
                } else {
                    let p = row.assumingMemoryBound(to: UInt16.self)
                    for x in 0..<width where p[x * 4 + 3] != 65535 { return false }
                }
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

import WICore

/// cairo's ARGB32 pixels to the project's RGBA8.
package enum CairoPixels {
    /// Turns `buffer`'s bytes, written by cairo as premultiplied ARGB32 in native-endian 32-bit words, into RGBA8
    /// in place: kept premultiplied when `buffer.format` is `.premultipliedRGBA8`, else unpremultiplied with
    /// rounding, round(c * 255 / a) as `PixelMath.unpremultiply` (what rsvg-convert writes), colour 0 under zero
    /// alpha.
    ///
    /// The division is a multiplication by a reciprocal from a table (`reciprocals`), exact for every value a
    /// premultiplied 8-bit channel can hold: a per-channel integer division made this loop a third of an SVG
    /// decode's time (more than librsvg's own drawing on mostly transparent logos).
    package static func convertARGB32(_ buffer: inout PixelBuffer) throws(ImageError) {
        let straight = !buffer.format.isPremultiplied
        let width = buffer.width
        let height = buffer.height
        let rowBytes = buffer.bytesPerRow
        try buffer.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            reciprocals.withUnsafeBufferPointer { table in
                for y in 0..<height {
                    let words = (base + y * rowBytes).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<width {
                        let word = words[x]
                        let a = word >> 24
                        // Nothing covered: straight transparent black, with no arithmetic (most of a logo's canvas;
                        // the multiplications below took an SVG decode to 1.4-1.55x librsvg + cairo called from C).
                        if straight && a == 0 {
                            words[x] = 0
                            continue
                        }
                        var r = word >> 16 & 0xFF
                        var g = word >> 8 & 0xFF
                        var b = word & 0xFF
                        if straight && a != 255 {
                            let reciprocal = table[Int(a)]
                            r = unpremultiply(r, alpha: a, reciprocal: reciprocal)
                            g = unpremultiply(g, alpha: a, reciprocal: reciprocal)
                            b = unpremultiply(b, alpha: a, reciprocal: reciprocal)
                        }
                        // The bytes r, g, b, a in memory order, whatever the machine's byte order.
                        words[x] = UInt32(littleEndian: r | g << 8 | b << 16 | a << 24)
                    }
                }
            }
        }
    }

    /// ceil(2^32 / a) for a in 1...255 (0 for a = 0, which makes every colour under zero alpha 0).
    /// floor(n * ceil(2^32 / a) / 2^32) == floor(n / a) holds for n < 2^32 / a; n here is at most 255 * 255 + 127.
    static let reciprocals: [UInt64] = (0..<256).map { a in a == 0 ? 0 : ((1 << 32) + UInt64(a) - 1) / UInt64(a) }

    /// round(value * 255 / alpha), at most 255: `PixelMath.unpremultiply(value, alpha:, maximum: 255)` without the
    /// division.
    @inline(__always)
    static func unpremultiply(_ value: UInt32, alpha: UInt32, reciprocal: UInt64) -> UInt32 {
        let quotient = (UInt64(value &* 255 &+ (alpha >> 1)) &* reciprocal) >> 32
        return UInt32(truncatingIfNeeded: Swift.min(quotient, 255))
    }
}

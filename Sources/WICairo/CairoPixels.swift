import WICore

/// cairo's ARGB32 pixels to the project's RGBA8.
package enum CairoPixels {
    /// Turns `buffer`'s bytes, written by cairo as premultiplied ARGB32 in native-endian 32-bit words, into RGBA8
    /// in place: kept premultiplied when `buffer.format` is `.premultipliedRGBA8`, else unpremultiplied with
    /// rounding, round(c * 255 / a) as `PixelMath.unpremultiply` (what rsvg-convert writes), colour 0 under zero
    /// alpha.
    package static func convertARGB32(_ buffer: inout PixelBuffer) throws(ImageError) {
        let straight = !buffer.format.isPremultiplied
        let width = buffer.width, height = buffer.height, rowBytes = buffer.bytesPerRow
        try buffer.withUnsafeMutableBytes { bytes in
            for y in 0..<height {
                let row = bytes.baseAddress! + y * rowBytes
                let words = row.assumingMemoryBound(to: UInt32.self)
                let out = row.assumingMemoryBound(to: UInt8.self)
                for x in 0..<width {
                    let word = words[x]
                    let a = Int(word >> 24)
                    var r = Int(word >> 16 & 0xFF), g = Int(word >> 8 & 0xFF), b = Int(word & 0xFF)
                    if straight && a != 255 {
                        r = PixelMath.unpremultiply(r, alpha: a, maximum: 255)
                        g = PixelMath.unpremultiply(g, alpha: a, maximum: 255)
                        b = PixelMath.unpremultiply(b, alpha: a, maximum: 255)
                    }
                    out[x * 4] = UInt8(r)
                    out[x * 4 + 1] = UInt8(g)
                    out[x * 4 + 2] = UInt8(b)
                    out[x * 4 + 3] = UInt8(a)
                }
            }
        }
    }
}

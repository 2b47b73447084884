import Testing
import WICairo
import WICore

/// The cairo ARGB32 -> RGBA8 conversion the vector coders share: every (alpha, channel) pair against
/// `PixelMath.unpremultiply`, the rounding rsvg-convert uses.
@Suite struct CairoPixelsTests {
    /// A 256 x 256 premultiplied ARGB32 canvas: row a has alpha a; column c has red c, green 255 - c, blue c / 2
    /// (values above alpha included: cairo never writes them, the conversion must still clamp, not wrap).
    static func canvas(format: PixelFormat) throws -> PixelBuffer {
        var buffer = try PixelBuffer(width: 256, height: 256, format: format)
        try buffer.withUnsafeMutableBytes { bytes in
            let words = bytes.bindMemory(to: UInt32.self)
            for a in 0..<256 {
                for c in 0..<256 {
                    words[a * 256 + c] = UInt32(a) << 24 | UInt32(c) << 16 | UInt32(255 - c) << 8 | UInt32(c / 2)
                }
            }
        }
        return buffer
    }

    @Test func straightAlphaMatchesPixelMathForEveryValue() throws {
        var buffer = try Self.canvas(format: .rgba8)
        try CairoPixels.convertARGB32(&buffer)
        var mismatches = 0
        buffer.withUnsafeBytes { bytes in
            for a in 0..<256 {
                for c in 0..<256 {
                    let expected =
                        a == 255
                        ? [c, 255 - c, c / 2, a]
                        : [
                            PixelMath.unpremultiply(c, alpha: a, maximum: 255),
                            PixelMath.unpremultiply(255 - c, alpha: a, maximum: 255),
                            PixelMath.unpremultiply(c / 2, alpha: a, maximum: 255), a,
                        ]
                    let at = (a * 256 + c) * 4
                    if (0..<4).map({ Int(bytes[at + $0]) }) != expected { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
        #expect(buffer.color(x: 100, y: 200) == RGBAColor(red: 128, green: 198, blue: 64, alpha: 200))
        #expect(buffer.color(x: 77, y: 0) == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
    }

    @Test func premultipliedOutputOnlyReordersTheBytes() throws {
        var buffer = try Self.canvas(format: .premultipliedRGBA8)
        try CairoPixels.convertARGB32(&buffer)
        #expect(Self.bytes(buffer, x: 100, y: 200) == [100, 155, 50, 200])
        #expect(Self.bytes(buffer, x: 3, y: 0) == [3, 252, 1, 0])
    }

    static func bytes(_ buffer: PixelBuffer, x: Int, y: Int) -> [UInt8] {
        buffer.withUnsafeBytes { Array($0[(y * buffer.bytesPerRow + x * 4)..<(y * buffer.bytesPerRow + x * 4 + 4)]) }
    }
}

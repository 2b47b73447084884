import Testing
import WICore

@Suite struct PixelBufferTests {
    @Test func copiesShareMemoryUntilWritten() throws {
        var a = try PixelBuffer(width: 2, height: 2, format: .rgba8)
        try a.withUnsafeMutableBytes { $0[0] = 10 }
        var b = a
        #expect(a.withUnsafeBytes { $0.baseAddress } == b.withUnsafeBytes { $0.baseAddress })
        try b.withUnsafeMutableBytes { $0[0] = 20 }
        #expect(a.withUnsafeBytes { $0.baseAddress } != b.withUnsafeBytes { $0.baseAddress })
        #expect(a.withUnsafeBytes { $0[0] } == 10)
        #expect(b.withUnsafeBytes { $0[0] } == 20)
    }

    @Test func zeroedByDefaultAndSizesChecked() throws {
        let buffer = try PixelBuffer(width: 3, height: 2, format: .rgba16)
        #expect(buffer.bytesPerRow == 24)
        #expect(buffer.byteCount == 48)
        #expect(buffer.withUnsafeBytes { $0.allSatisfy { $0 == 0 } })
        #expect(throws: ImageError.self) { try PixelBuffer(width: 0, height: 5, format: .rgba8) }
        #expect(throws: ImageError.self) { try PixelBuffer(width: Int.max / 2, height: 3, format: .rgba8) }
        #expect(throws: ImageError.self) { try PixelBuffer(width: 2, height: 1, format: .rgba8, bytes: [1, 2, 3]) }
    }

    @Test func equalityIgnoresRowPadding() throws {
        let tight = try PixelBuffer(width: 1, height: 2, format: .rgba8, bytes: [1, 2, 3, 4, 5, 6, 7, 8])
        var padded = try PixelBuffer(width: 1, height: 2, format: .rgba8, bytesPerRow: 16)
        try padded.withUnsafeMutableBytes { bytes in
            for i in 0..<4 {
                bytes[i] = UInt8(i + 1)
                bytes[16 + i] = UInt8(i + 5)
            }
            bytes[8] = 99  // padding
        }
        #expect(tight == padded)
        #expect(padded.packedBytes() == [1, 2, 3, 4, 5, 6, 7, 8])
    }

    @Test func premultiplyAndBackRoundsExactly() throws {
        let straight = try PixelBuffer(
            width: 3, height: 1, format: .rgba8,
            bytes: [200, 100, 50, 128, 255, 255, 255, 0, 10, 20, 30, 255])
        let premultiplied = try straight.converted(to: .premultipliedRGBA8)
        // round(200*128/255) = 100, round(100*128/255) = 50, round(50*128/255) = 25; zero alpha clears colour.
        #expect(premultiplied.packedBytes() == [100, 50, 25, 128, 0, 0, 0, 0, 10, 20, 30, 255])
        let back = try premultiplied.converted(to: .rgba8)
        // round(100*255/128) = 199: premultiplying loses precision at low alpha, as in every library.
        #expect(back.packedBytes() == [199, 100, 50, 128, 0, 0, 0, 0, 10, 20, 30, 255])
        #expect(back.color(x: 0, y: 0) == RGBAColor(red: 199, green: 100, blue: 50, alpha: 128))
    }

    @Test func sixteenBitConversions() throws {
        let wide = try PixelBuffer(width: 1, height: 1, format: .rgba8, bytes: [255, 128, 1, 255])
            .converted(to: .rgba16)
        let words = wide.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        #expect(words == [65535, 128 * 257, 257, 65535])
        #expect(try wide.converted(to: .rgba8).packedBytes() == [255, 128, 1, 255])
        #expect(wide.color(x: 0, y: 0) == RGBAColor(red: 255, green: 128, blue: 1, alpha: 255))
    }

    /// A coder's opaque-by-construction mark answers `isOpaque` without a scan; any write clears it.
    @Test func knownOpaquePixelsAnswerAtOnceUntilWritten() throws {
        var buffer = try PixelBuffer(width: 2, height: 1, format: .rgba8, bytes: [0, 0, 0, 255, 9, 9, 9, 0])
        #expect(!buffer.isOpaque)
        buffer.isKnownOpaque = true  // what only a coder whose pixels are opaque may say; here it proves no scan
        #expect(buffer.isOpaque)
        try buffer.withUnsafeMutableBytes { $0[7] = 0 }
        #expect(!buffer.isKnownOpaque && !buffer.isOpaque)
    }

    @Test func opacity() throws {
        #expect(try PixelBuffer(width: 1, height: 1, format: .rgba8, bytes: [0, 0, 0, 255]).isOpaque)
        #expect(try !PixelBuffer(width: 1, height: 1, format: .rgba8, bytes: [0, 0, 0, 254]).isOpaque)
        // Every width from 1 to 9 (odd ones end in half a word), three rows, 8 and 16 bits: opaque with colours of
        // every kind, and not opaque as soon as any one pixel's alpha is below the maximum (one bit off, or 0).
        for wide in [false, true] {
            for width in 1...9 {
                let size = width * 3
                func buffer(_ alphaAt: Int?, _ alpha: UInt16) throws -> PixelBuffer {
                    var samples: [UInt16] = []
                    for index in 0..<size {
                        let color = UInt16(truncatingIfNeeded: index &* 37)
                        samples += [color, 0, wide ? 65_535 : 255, index == alphaAt ? alpha : (wide ? 65_535 : 255)]
                    }
                    let bytes =
                        wide
                        ? samples.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
                        : samples.map { UInt8(truncatingIfNeeded: $0) }
                    return try PixelBuffer(width: width, height: 3, format: wide ? .rgba16 : .rgba8, bytes: bytes)
                }
                #expect(try buffer(nil, 0).isOpaque, "\(width) wide, \(wide ? 16 : 8) bits")
                for index in 0..<size {
                    for alpha: UInt16 in wide ? [65_534, 0x7FFF, 0] : [254, 127, 0] {
                        #expect(try !buffer(index, alpha).isOpaque, "\(width) wide, pixel \(index), alpha \(alpha)")
                    }
                }
            }
        }
    }

    @Test func hexColors() {
        #expect(RGBAColor(hex: "#ff8000") == RGBAColor(red: 255, green: 128, blue: 0, alpha: 255))
        #expect(RGBAColor(hex: "FF800080") == RGBAColor(red: 255, green: 128, blue: 0, alpha: 128))
        #expect(RGBAColor(hex: "#ff80") == nil)
        #expect(RGBAColor(hex: "#gg8000") == nil)
        #expect(RGBAColor(hex: "#f80") == RGBAColor(red: 255, green: 136, blue: 0))
        #expect(RGBAColor(hex: "red") == nil)
        #expect(RGBAColor(parsing: "Grey") == RGBAColor(red: 128, green: 128, blue: 128))
        #expect(RGBAColor(parsing: "transparent") == .clear)
        #expect(RGBAColor(parsing: "ff800080") == RGBAColor(red: 255, green: 128, blue: 0, alpha: 128))
        #expect(RGBAColor(parsing: "ff800080", alpha: false) == nil)
        #expect(RGBAColor(parsing: "#abc", alpha: false) == RGBAColor(red: 0xAA, green: 0xBB, blue: 0xCC))
        #expect(RGBAColor(parsing: "purple") == nil)
        #expect(RGBAColor(red: 1, green: 2, blue: 3, alpha: 4).hexString == "#01020304")
    }
}

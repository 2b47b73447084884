import Foundation
import Testing
import WICore
import WICoderBMP
import WICoderPNG
import WITestSupport

/// Encoding BMP and ICO, checked by decoding the result and by the header bytes written.
@Suite struct BMPEncodeTests {
    /// A 37x23 gradient; with `alpha`, alpha varies per column (including 0 and 255).
    static func gradient(alpha: Bool) throws -> Image {
        var bytes: [UInt8] = []
        for y in 0..<23 {
            for x in 0..<37 {
                bytes += [UInt8(x * 7), UInt8(y * 11), UInt8((x + y) * 3), alpha ? UInt8(x * 255 / 36) : 255]
            }
        }
        return Image(pixels: try PixelBuffer(width: 37, height: 23, format: .rgba8, bytes: bytes))
    }

    func u32(_ data: Data, _ at: Int) -> Int {
        (0..<4).reduce(0) { $0 | Int(data[data.startIndex + at + $1]) << (8 * $1) }
    }

    @Test(arguments: [false, true])
    func bmpRoundTripsExactly(alpha: Bool) throws {
        let image = try Self.gradient(alpha: alpha)
        let data = try BMPCoder().encode(image, as: .bmp, options: .init())
        #expect(ImageFormat.detect(data) == .bmp)
        #expect(u32(data, 14) == (alpha ? 108 : 40))  // V4 header with an alpha mask, or BITMAPINFOHEADER
        #expect(Int(data[28]) == (alpha ? 32 : 24))
        #expect(data.count == 14 + (alpha ? 108 + 37 * 4 * 23 : 40 + 112 * 23))
        let decoded = try BMPCoder().decode(data, options: .init())
        #expect(decoded.size == image.size)
        #expect(decoded.pixels == image.pixels)
    }

    @Test func maxPixelSizeScalesDown() throws {
        let data = try BMPCoder().encode(
            try Self.gradient(alpha: false), as: .bmp,
            options: .init(maxPixelSize: PixelSize(width: 10, height: 10)))
        #expect(try BMPCoder().decode(data, options: .init()).size == PixelSize(width: 10, height: 6))
    }

    @Test func icoWithABMPEntryRoundTrips() throws {
        let image = try Self.gradient(alpha: true)
        let data = try BMPCoder().encode(image, as: .ico, options: .init())
        #expect(ImageFormat.detect(data) == .ico)
        #expect(Array(data.prefix(8)) == [0, 0, 1, 0, 1, 0, 37, 23])
        #expect(u32(data, 22) == 40)  // a DIB, not a PNG
        let decoded = try BMPCoder().decode(data, options: .init())
        #expect(decoded.size == image.size)
        // Alpha carries the transparency; the AND mask marks the alpha-0 column too.
        #expect(decoded.pixels == image.pixels)
    }

    @Test func icoWithAPNGEntryAndLargeImagesFitIn256() throws {
        let large = Image(
            pixels: try PixelBuffer(
                width: 600, height: 300, format: .rgba8,
                bytes: [UInt8](repeating: 200, count: 600 * 300 * 4)))
        let coder = BMPCoder(pngCoder: PNGCoder())
        let data = try coder.encode(large, as: .ico, options: .init())
        #expect(Array(data.prefix(8)) == [0, 0, 1, 0, 1, 0, 0, 128])  // 256 written as 0
        #expect(Array(data[22..<26]) == [0x89, 0x50, 0x4E, 0x47])
        let decoded = try coder.decode(data, options: .init())
        #expect(decoded.size == PixelSize(width: 256, height: 128))
        #expect(decoded.pixels.color(x: 100, y: 100) == RGBAColor(red: 200, green: 200, blue: 200, alpha: 200))
        #expect(coder.canEncode(to: .ico) && coder.canEncode(to: .bmp) && !coder.canEncode(to: .cur))
        let error = #expect(throws: ImageError.self) { try coder.encode(large, as: .gif, options: .init()) }
        #expect(error?.code == .unsupportedFormat)
    }
}

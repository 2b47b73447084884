import Foundation
import Testing
import WICore
import WICoderTIFF
import WITestSupport

/// Encoding: LZW and Deflate, RGBA or RGB, pages and orientation, decoded back exactly.
@Suite struct TIFFEncodeTests {
    static func pattern(width: Int, height: Int, alpha: Bool) throws -> PixelBuffer {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let a = alpha ? UInt8((x * 9 + y * 4) % 256) : 255
                bytes += [UInt8(x * 7 % 256), UInt8(y * 5 % 256), UInt8((x ^ y) % 256), a]
            }
        }
        return try PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes)
    }

    @Test(arguments: [TIFFCoder.Compression.lzw, .deflate])
    func roundTripIsExact(compression: TIFFCoder.Compression) throws {
        let coder = TIFFCoder(compression: compression)
        for alpha in [true, false] {
            let pixels = try Self.pattern(width: 67, height: 41, alpha: alpha)
            let data = try coder.encode(Image(pixels: pixels), as: .tiff, options: .init())
            #expect(coder.canDecode(data))
            let decoded = try coder.decode(data, options: .init())
            #expect(decoded.pixels == pixels)
            #expect(decoded.hasAlpha == alpha)
        }
    }

    @Test func deflateAndLZWDifferAndCompress() throws {
        let pixels = try Self.pattern(width: 200, height: 100, alpha: false)
        let lzw = try TIFFCoder(compression: .lzw).encode(Image(pixels: pixels), as: .tiff, options: .init())
        let deflate = try TIFFCoder(compression: .deflate).encode(Image(pixels: pixels), as: .tiff, options: .init())
        #expect(lzw != deflate)
        #expect(lzw.count < 200 * 100 * 3)
        #expect(deflate.count < 200 * 100 * 3)
    }

    @Test func framesBecomePagesAndOrientationIsKept() throws {
        let first = try Self.pattern(width: 10, height: 6, alpha: true)
        let second = try Self.pattern(width: 10, height: 6, alpha: false)
        let image = Image(
            frames: [ImageFrame(pixels: first, duration: 0.1), ImageFrame(pixels: second, duration: 0.1)],
            orientation: .left)
        let data = try TIFFCoder().encode(image, as: .tiff, options: .init())
        let decoded = try TIFFCoder(decodesAllPages: true).decode(data, options: .init(applyOrientation: false))
        #expect(try decoded.frames.map(\.pixels) == [first, second])
        #expect(decoded.orientation == .left)
        let single = try TIFFCoder().encode(image, as: .tiff, options: .init(firstFrameOnly: true))
        #expect(try TIFFCoder().makeAnimatedDecoder(single, options: .init()).frameCount == 1)
    }

    @Test func maxPixelSizeAndWideInput() throws {
        var wide = try PixelBuffer(width: 40, height: 20, format: .rgba16)
        try wide.withUnsafeMutableBytes { $0.bindMemory(to: UInt16.self).update(repeating: 0x8080) }
        let data = try TIFFCoder().encode(
            Image(pixels: wide), as: .tiff,
            options: .init(maxPixelSize: PixelSize(width: 20, height: 20)))
        let decoded = try TIFFCoder().decode(data, options: .init())
        #expect(decoded.size == PixelSize(width: 20, height: 10))
        #expect(decoded.pixels.color(x: 3, y: 3).red == 128)
        #expect(throws: ImageError.self) { try TIFFCoder().encode(Image(pixels: wide), as: .png, options: .init()) }
        #expect(TIFFCoder().canEncode(to: .tiff) && !TIFFCoder().canEncode(to: .jpeg))
    }
}

import Foundation
import Testing
import WICore
import WICoderTIFF
import WITestSupport

/// Thumbnails stream strips (or rows of tiles) through a box reduction: the largest bitmap is the reduced one.
@Suite struct TIFFThumbnailTests {
    /// A smooth 1200x900 RGBA gradient written with our encoder (LZW, strips of a few rows).
    static func gradientTIFF() throws -> Data {
        var buffer = try PixelBuffer(width: 1200, height: 900, format: .rgba8, zeroed: false)
        try buffer.withUnsafeMutableBytes { bytes in
            for y in 0..<900 {
                for x in 0..<1200 {
                    let p = (y * 1200 + x) * 4
                    bytes[p] = UInt8(x * 255 / 1199)
                    bytes[p + 1] = UInt8(y * 255 / 899)
                    bytes[p + 2] = UInt8((x + y) * 255 / 2098)
                    bytes[p + 3] = 255
                }
            }
        }
        return try TIFFCoder().encode(Image(pixels: buffer), as: .tiff, options: .init())
    }

    @Test func thumbnailNeverHoldsTheFullBitmap() throws {
        let data = try Self.gradientTIFF()
        let options = DecodeOptions(thumbnailPixelSize: PixelSize(width: 100, height: 100))
        let (image, decoded) = try TIFFCoder().decodeReportingReduction(data, options: options)
        #expect(image.size == PixelSize(width: 100, height: 75))
        #expect(image.flags.contains(.thumbnail))
        // 1200 / 100 = 12 = 900 / 75: the box reduction lands on the target, nothing left to resample.
        #expect(decoded == PixelSize(width: 100, height: 75))
        let full = try TIFFCoder().decode(data, options: .init())
        let resampled = try ImageCoding.AreaAverageResampler().resample(full.pixels, to: image.size)
        #expect(try #require(image.pixels.psnr(against: resampled)) > 35)
    }

    @Test func reductionStopsAtTheTargetThenResamples() throws {
        let data = try Self.gradientTIFF()
        let options = DecodeOptions(thumbnailPixelSize: PixelSize(width: 256, height: 256))
        let (image, decoded) = try TIFFCoder().decodeReportingReduction(data, options: options)
        #expect(image.size == PixelSize(width: 256, height: 192))
        // floor(min(1200 / 256, 900 / 192)) = 4: 300x225 streamed, then resampled to 256x192.
        #expect(decoded == PixelSize(width: 300, height: 225))
    }

    @Test func tiledAndCCITTThumbnails() throws {
        let tiled = try TIFFCoder().decodeReportingReduction(
            tiffData("BigTIFFLong8Tiles.tif"),
            options: .init(thumbnailPixelSize: .init(width: 16, height: 16)))
        #expect(tiled.image.size == PixelSize(width: 16, height: 16))
        #expect(tiled.decodedSize == PixelSize(width: 16, height: 16))
        let fax = try TIFFCoder().decodeReportingReduction(
            tiffData("CCITT-G4-300dpi-StripByteCounts0.tif"),
            options: .init(thumbnailPixelSize: .init(width: 200, height: 200)))
        #expect(fax.image.size == PixelSize(width: 141, height: 200))
        #expect(fax.decodedSize == PixelSize(width: 146, height: 207))  // 2480x3507 / 17, rounded up
    }

    @Test func byteLimitAndExactSize() throws {
        let data = try Self.gradientTIFF()
        let limited = try TIFFCoder().decode(data, options: .init(scaleDownLimitBytes: 120_000))
        #expect(limited.width * limited.height * 4 <= 120_000)
        #expect(limited.flags.contains(.thumbnail))
        let exact = try TIFFCoder().decode(
            data,
            options: .init(
                thumbnailPixelSize: .init(width: 50, height: 80),
                preserveAspectRatio: false))
        #expect(exact.size == PixelSize(width: 50, height: 80))
        let never = try TIFFCoder().decode(
            tiffData("l1.tiff"), options: .init(thumbnailPixelSize: .init(width: 400, height: 400)))
        #expect(never.size == PixelSize(width: 100, height: 100))
        #expect(!never.flags.contains(.thumbnail))
    }

    @Test func sixteenBitThumbnailStaysSixteenBit() throws {
        let image = try TIFFCoder().decode(
            tiffData("16_bits.tiff"),
            options: .init(thumbnailPixelSize: .init(width: 100, height: 100), keep16Bit: true))
        #expect(image.size == PixelSize(width: 100, height: 75))
        #expect(image.pixels.format == .rgba16)
    }
}

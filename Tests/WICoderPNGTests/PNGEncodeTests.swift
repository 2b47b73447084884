import Foundation
import Testing
import WICore
import WICoderPNG
import WITestSupport

@Suite struct PNGEncodeTests {
    /// IHDR bit depth (byte 24) and colour type (byte 25) of an encoded PNG.
    private func layout(_ data: Data) -> (depth: UInt8, colorType: UInt8) {
        (data[data.startIndex + 24], data[data.startIndex + 25])
    }

    private func image(_ bytes: [UInt8], width: Int, height: Int, format: PixelFormat = .rgba8) throws -> Image {
        Image(pixels: try PixelBuffer(width: width, height: height, format: format, bytes: bytes))
    }

    @Test func rgbaWithAlphaRoundTripsExactly() throws {
        let source = try PNGCoder().decode(Fixtures.data("pngsuite/basn6a08.png"), options: .init())
        let data = try PNGCoder().encode(source, as: .png, options: .init())
        #expect(layout(data) == (8, 6))
        let decoded = try PNGCoder().decode(data, options: .init())
        #expect(decoded.pixels == source.pixels)
    }

    @Test func choosesTheSmallestLosslessLayout() throws {
        let opaqueColour = try image([255, 0, 0, 255, 0, 255, 0, 255], width: 2, height: 1)
        let opaqueGrey = try image([7, 7, 7, 255, 200, 200, 200, 255], width: 2, height: 1)
        let greyAlpha = try image([7, 7, 7, 10, 200, 200, 200, 255], width: 2, height: 1)
        for (image, colorType) in [(opaqueColour, UInt8(2)), (opaqueGrey, 0), (greyAlpha, 4)] {
            let data = try PNGCoder().encode(image, as: .png, options: .init())
            #expect(layout(data) == (8, colorType))
            #expect(try PNGCoder().decode(data, options: .init()).pixels == image.pixels)
        }
    }

    @Test func sixteenBitRoundTripsExactly() throws {
        let source = try PNGCoder().decode(Fixtures.data("png/rgba16.png"), options: .init(keep16Bit: true))
        #expect(source.pixels.format == .rgba16)
        let data = try PNGCoder().encode(source, as: .png, options: .init())
        #expect(layout(data).depth == 16)
        #expect(try PNGCoder().decode(data, options: .init(keep16Bit: true)).pixels == source.pixels)
        // Every 16-bit PngSuite file too.
        for reference in PngSuiteTests.references16 {
            let original = try PNGCoder().decode(
                Fixtures.data("pngsuite/\(reference.file)"), options: .init(keep16Bit: true))
            let again = try PNGCoder().decode(
                try PNGCoder().encode(original, as: .png, options: .init()),
                options: .init(keep16Bit: true))
            #expect(again.pixels == original.pixels, "\(reference.file)")
        }
    }

    @Test func premultipliedInputIsWrittenStraight() throws {
        let straight = try image([200, 100, 50, 128], width: 1, height: 1)
        let premultiplied = Image(pixels: try straight.pixels.converted(to: .premultipliedRGBA8))
        let decoded = try PNGCoder().decode(
            try PNGCoder().encode(premultiplied, as: .png, options: .init()), options: .init())
        #expect(decoded.pixels.color(x: 0, y: 0) == RGBAColor(red: 199, green: 100, blue: 50, alpha: 128))
    }

    @Test func maxPixelSizeScalesDown() throws {
        let source = try PNGCoder().decode(Fixtures.data("png/interlaced-hibiscus.png"), options: .init())
        let data = try PNGCoder().encode(source, as: .png, options: .init(maxPixelSize: .init(width: 100, height: 100)))
        #expect(try PNGCoder().decode(data, options: .init()).size == PixelSize(width: 71, height: 100))
    }

    @Test func metadataIsWrittenWithTheOrientationItsPixelsNeed() throws {
        let upright = try PNGCoder().decode(Fixtures.data("png/exif-orientation6-iccp.png"), options: .init())
        let data = try PNGCoder().encode(upright, as: .png, options: .init())
        let again = try PNGCoder().decode(data, options: .init(applyOrientation: false))
        #expect(again.orientation == .up)  // not turned a second time
        #expect(again.metadata.iccProfile == upright.metadata.iccProfile)
        #expect(again.pixels == upright.pixels)
    }

    @Test func refusesOtherFormats() {
        let error = #expect(throws: ImageError.self) {
            try PNGCoder().encode(try image([0, 0, 0, 255], width: 1, height: 1), as: .jpeg, options: .init())
        }
        #expect(error?.code == .unsupportedFormat)
        #expect(PNGCoder().canEncode(to: .png) && !PNGCoder().canEncode(to: .jpeg))
    }
}

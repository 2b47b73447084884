import Foundation
import Testing
import WICore
import WICoderBMP
import WITestSupport

/// Every header, depth, compression and alpha rule on files written byte by byte (BMPBuilder).
@Suite struct BMPDecodeTests {
    typealias B = BMPBuilder
    let red = RGBAColor(red: 255, green: 0, blue: 0), blue = RGBAColor(red: 0, green: 0, blue: 255)
    let green = RGBAColor(red: 0, green: 255, blue: 0)

    func decode(_ data: Data, _ options: DecodeOptions = .init()) throws(ImageError) -> Image {
        try BMPCoder().decode(data, options: options)
    }

    func colors(_ image: Image) -> [[RGBAColor]] {
        (0..<image.height).map { y in (0..<image.width).map { image.pixels.color(x: $0, y: y) } }
    }

    @Test func oneBitBottomUpWithAPalette() throws {
        // Stored bottom row first: bottom row = index 1,0 (blue, red); top row = 0,1.
        let dib = B.infoHeader(width: 2, height: 2, bitCount: 1) + B.palette([(255, 0, 0), (0, 0, 255)])
        let image = try decode(B.file(dib: dib, pixels: B.padded([[0b1000_0000], [0b0100_0000]])))
        #expect(image.format == .bmp)
        #expect(image.flags == [])
        #expect(colors(image) == [[red, blue], [blue, red]])
    }

    @Test func twoBitAndCoreHeaderFourBit() throws {
        let palette = [(UInt8(255), UInt8(0), UInt8(0)), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
        let two = B.infoHeader(width: 4, height: -1, bitCount: 2) + B.palette(palette)
        #expect(
            colors(try decode(B.file(dib: two, pixels: B.padded([[0b00_01_10_11]]))))
                == [[red, green, blue, .white]])
        // BITMAPCOREHEADER: 16-bit width and height, 3-byte palette entries, always bottom-up.
        let core = B.u32(12) + B.u16(3) + B.u16(1) + B.u16(1) + B.u16(4)
        let file = B.file(
            dib: core + B.palette(palette, entrySize: 3) + [UInt8](repeating: 0, count: 36),
            pixels: B.padded([[0x21, 0x30]]))
        #expect(colors(try decode(file)) == [[blue, green, .white]])
    }

    @Test func eightBitTopDownAndIndexesPastThePalette() throws {
        let dib =
            B.infoHeader(width: 3, height: -2, bitCount: 8, colorsUsed: 2) + B.palette([(255, 0, 0), (0, 0, 255)])
        let image = try decode(B.file(dib: dib, pixels: B.padded([[0, 1, 7], [1, 0, 200]])))
        #expect(colors(image) == [[red, blue, .black], [blue, red, .black]])
    }

    @Test func sixteenBitFiveFiveFiveScalesAsPillowDoes() throws {
        // v * 255 / 31, truncated: 3 -> 24, 30 -> 246, 31 -> 255.
        let pixel = (3 << 10) | (30 << 5) | 31
        let image = try decode(
            B.file(
                dib: B.infoHeader(width: 1, height: 1, bitCount: 16),
                pixels: B.padded([B.u16(pixel)])))
        #expect(image.pixels.color(x: 0, y: 0) == RGBAColor(red: 24, green: 246, blue: 255))
    }

    @Test func twentyFourAndThirtyTwoBitRGBIgnoreTheFourthByte() throws {
        let bgr = try decode(
            B.file(
                dib: B.infoHeader(width: 2, height: 1, bitCount: 24),
                pixels: B.padded([[1, 2, 3, 4, 5, 6]])))
        #expect(colors(bgr) == [[RGBAColor(red: 3, green: 2, blue: 1), RGBAColor(red: 6, green: 5, blue: 4)]])
        let bgrx = try decode(B.file(dib: B.infoHeader(width: 1, height: 1, bitCount: 32), pixels: [1, 2, 3, 9]))
        #expect(bgrx.pixels.color(x: 0, y: 0) == RGBAColor(red: 3, green: 2, blue: 1, alpha: 255))
    }

    @Test func tenBitBitfieldsScaleExactly() throws {
        // 10-10-10 masks after a 40-byte header (BI_BITFIELDS): 1023 -> 255, 512 -> 127, 1 -> 0.
        let masks = B.u32(0x3FF0_0000) + B.u32(0x000F_FC00) + B.u32(0x0000_03FF)
        let value = 1023 << 20 | 512 << 10 | 1
        let image = try decode(
            B.file(
                dib: B.infoHeader(width: 1, height: 1, bitCount: 32, compression: 3) + masks,
                pixels: B.u32(value)))
        #expect(image.pixels.color(x: 0, y: 0) == RGBAColor(red: 255, green: 127, blue: 0, alpha: 255))
    }

    @Test func v4AlphaMaskGivesAlphaAndAnAllZeroAlphaIsOpaque() throws {
        let masks = [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000]
        for size in [56, 108, 124] {
            let dib = B.infoHeader(size: size, width: 2, height: 1, bitCount: 32, compression: 3, masks: masks)
            let image = try decode(B.file(dib: dib, pixels: [10, 20, 30, 128, 40, 50, 60, 0]))
            #expect(
                colors(image) == [
                    [
                        RGBAColor(red: 30, green: 20, blue: 10, alpha: 128),
                        RGBAColor(red: 60, green: 50, blue: 40, alpha: 0),
                    ]
                ], "header \(size)")
            let zero = try decode(B.file(dib: dib, pixels: [10, 20, 30, 0, 40, 50, 60, 0]))
            #expect(colors(zero).flatMap { $0 }.map(\.alpha) == [255, 255], "header \(size)")
        }
    }

    @Test func alphaBitfieldsFourFourFourFour() throws {
        // BI_ALPHABITFIELDS (6): four masks after a 40-byte header; 4-bit channels, v * 255 / 15.
        let masks = B.u32(0x0F00) + B.u32(0x00F0) + B.u32(0x000F) + B.u32(0xF000)
        let image = try decode(
            B.file(
                dib: B.infoHeader(width: 1, height: 1, bitCount: 16, compression: 6) + masks,
                pixels: B.padded([B.u16(0x8F31)])))
        #expect(image.pixels.color(x: 0, y: 0) == RGBAColor(red: 255, green: 51, blue: 17, alpha: 136))
    }

    @Test func nonContiguousMasksAndUnknownHeadersAreTypedErrors() {
        let masks = B.u32(0xF0F0) + B.u32(0x0F00) + B.u32(0x000F)
        let gap = B.file(
            dib: B.infoHeader(width: 1, height: 1, bitCount: 16, compression: 3) + masks, pixels: [0, 0, 0, 0])
        #expect(throws: ImageError.self) { try decode(gap) }
        #expect((try? decode(gap)) == nil)
        var header = B.infoHeader(width: 1, height: 1, bitCount: 24)
        header.replaceSubrange(0..<4, with: B.u32(41))
        let odd = B.file(dib: header, pixels: [0, 0, 0, 0])
        let oddError = #expect(throws: ImageError.self) { try BMPCoder().decode(odd, options: .init()) }
        #expect(oddError?.code == .unsupportedFormat)  // not even sniffed as BMP
        let jpeg = B.file(dib: B.infoHeader(width: 1, height: 1, bitCount: 24, compression: 4), pixels: [0xFF, 0xD8])
        let jpegError = #expect(throws: ImageError.self) { try decode(jpeg) }
        #expect(jpegError?.code == .unsupportedFormat)
        let depth = B.file(dib: B.infoHeader(width: 1, height: 1, bitCount: 40), pixels: [0, 0, 0, 0, 0])
        let depthError = #expect(throws: ImageError.self) { try decode(depth) }
        #expect(depthError?.code == .badImageData)
    }

    @Test func rle8DeltaEndOfLineAndEndOfBitmapLeaveTransparentPixels() throws {
        // 4x3, bottom-up. Row 0 (bottom): run of 2 x index 1, end of line. Row 1: absolute 3 pixels (0,1,0),
        // padded, then delta right 0 up 1 to row 2 at x 3, one pixel of index 1, end of bitmap.
        let stream: [UInt8] = [2, 1, 0, 0, 0, 3, 0, 1, 0, 0, 0, 2, 0, 1, 1, 1, 0, 1]
        let dib =
            B.infoHeader(width: 4, height: 3, bitCount: 8, compression: 1) + B.palette([(255, 0, 0), (0, 0, 255)])
        let image = try decode(B.file(dib: dib, pixels: stream))
        #expect(image.flags == [])
        #expect(
            colors(image) == [
                [.clear, .clear, .clear, blue],  // top row: the delta skipped x 0...2
                [red, blue, red, .clear],  // x 3 was skipped by the delta
                [blue, blue, .clear, .clear],  // end of line after two pixels
            ])
    }

    @Test func rle4EncodedAndAbsoluteRuns() throws {
        // 5x1: encoded run of 2 (1, 2); absolute run of 3 pixels (3, 0, 1) in 2 bytes; end of bitmap.
        let stream: [UInt8] = [2, 0x12, 0, 3, 0x30, 0x10, 0, 1]
        let palette = B.palette([(255, 0, 0), (0, 0, 255), (0, 255, 0), (255, 255, 255)])
        let dib = B.infoHeader(width: 5, height: 1, bitCount: 4, compression: 2, colorsUsed: 4) + palette
        #expect(colors(try decode(B.file(dib: dib, pixels: stream))) == [[blue, green, .white, red, blue]])
    }

    @Test func aCutRLEStreamIsIncomplete() throws {
        let dib = B.infoHeader(width: 4, height: 2, bitCount: 8, compression: 1) + B.palette([(255, 0, 0)])
        let image = try decode(B.file(dib: dib, pixels: [4, 0, 0]))
        #expect(image.flags == [.incomplete])
        #expect(colors(image) == [[.clear, .clear, .clear, .clear], [red, red, red, red]])
    }

    @Test func truncatedRowsGiveAnIncompleteImage() throws {
        let dib = B.infoHeader(width: 1, height: 3, bitCount: 24)
        let image = try decode(B.file(dib: dib, pixels: [0, 0, 255, 0, 0, 255, 0]))  // two rows of the three
        #expect(image.flags == [.incomplete])
        #expect(colors(image) == [[.clear], [green], [red]])
        let none = #expect(throws: ImageError.self) { try decode(B.file(dib: dib, pixels: [0, 0])) }
        #expect(none?.code == .badImageData)
    }

    @Test func thePixelLimitIsCheckedBeforeAllocating() {
        // A 60-byte file claiming 100000 x 100000 pixels.
        let huge = B.file(dib: B.infoHeader(width: 100_000, height: 100_000, bitCount: 24), pixels: [0, 0, 0, 0])
        let error = #expect(throws: ImageError.self) { try decode(huge) }
        #expect(error?.code == .pixelLimitExceeded)
        let small = B.file(
            dib: B.infoHeader(width: 4, height: 4, bitCount: 24), pixels: [UInt8](repeating: 0, count: 48))
        let limited = #expect(throws: ImageError.self) { try decode(small, DecodeOptions(pixelLimit: 15)) }
        #expect(limited?.code == .pixelLimitExceeded)
    }

    @Test func thumbnailsAndAlphaForms() throws {
        let image = try BMPCoder().decode(
            Fixtures.data("bmp/tm-24bitpalette.bmp"),
            options: .init(thumbnailPixelSize: PixelSize(width: 64, height: 64)))
        #expect(image.size == PixelSize(width: 64, height: 40))
        #expect(image.flags == [.thumbnail])
        let byteLimited = try BMPCoder().decode(
            Fixtures.data("bmp/tm-24bitpalette.bmp"),
            options: .init(scaleDownLimitBytes: 4 * 1000))
        #expect(byteLimited.size.area <= 1000)
        let masks = [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000]
        let dib = B.infoHeader(size: 108, width: 1, height: 1, bitCount: 32, compression: 3, masks: masks)
        let premultiplied = try BMPCoder().decode(
            B.file(dib: dib, pixels: [0, 0, 200, 128]),
            options: .init(premultipliedAlpha: true))
        #expect(premultiplied.pixels.format == .premultipliedRGBA8)
        #expect(premultiplied.pixels.withUnsafeBytes { Array($0.prefix(4)) } == [100, 0, 0, 128])
    }
}

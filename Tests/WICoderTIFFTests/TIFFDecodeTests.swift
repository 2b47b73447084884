import Foundation
import Testing
import WICore
import WICoderTIFF
import WITestSupport

/// Depths, alpha forms, orientation, metadata and sniffing, with values known from how the fixtures were written
/// (Tests/Fixtures/make-tiff-fixtures.py).
@Suite struct TIFFDecodeTests {
    /// The 16-bit samples of a `.rgba16` or `.premultipliedRGBA16` buffer.
    func samples16(_ buffer: PixelBuffer) -> [UInt16] {
        buffer.packedBytes().withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
    }

    @Test func sixteenBitRGBAKeepsItsSamples() throws {
        let image = try TIFFCoder().decode(tiffData("gen-rgba16-deflate.tif"), options: .init(keep16Bit: true))
        #expect(image.size == PixelSize(width: 19, height: 13))
        #expect(image.pixels.format == .rgba16)
        var expected: [UInt16] = []
        for y in 0..<13 {
            for x in 0..<19 { expected += [UInt16(x * 3300), UInt16(y * 5000), 40000, UInt16((x + y) * 2100 + 1000)] }
        }
        #expect(samples16(image.pixels) == expected)
        // Without keep16Bit: the high byte, as Pillow gives it.
        let eight = try TIFFCoder().decode(tiffData("gen-rgba16-deflate.tif"), options: .init())
        #expect(eight.pixels.format == .rgba8)
        #expect(eight.pixels.packedBytes() == expected.map { UInt8($0 >> 8) })
    }

    @Test func sixteenBitGreyWithAlpha() throws {
        let image = try TIFFCoder().decode(tiffData("gen-grey-alpha16.tif"), options: .init(keep16Bit: true))
        #expect(image.pixels.format == .rgba16)
        var expected: [UInt16] = []
        for y in 0..<9 {
            for x in 0..<15 {
                let grey = UInt16(x * 4000)
                expected += [grey, grey, grey, UInt16(65535 - y * 7000)]
            }
        }
        #expect(samples16(image.pixels) == expected)
    }

    @Test func twelveBitGreyScalesToSixteen() throws {
        let image = try TIFFCoder().decode(tiffData("12bit.cropped.tiff"), options: .init(keep16Bit: true))
        #expect(image.pixels.format == .rgba16)
        let eight = try TIFFCoder().decode(tiffData("12bit.cropped.tiff"), options: .init())
        // 8-bit output keeps the top 8 of 12 bits; 16-bit output scales 0...4095 to 0...65535.
        for (wide, narrow) in zip(samples16(image.pixels), eight.pixels.packedBytes()) {
            let twelve = (Int(wide) * 4095 + 32767) / 65535
            #expect(UInt8(twelve >> 4) == narrow)
        }
    }

    @Test func associatedAlphaComesOutPremultipliedWhenAsked() throws {
        let image = try TIFFCoder().decode(
            tiffData("gen-tiled-assoc-alpha.tif"), options: .init(premultipliedAlpha: true))
        #expect(image.pixels.format == .premultipliedRGBA8)
        var expected: [UInt8] = []
        for y in 0..<30 {
            for x in 0..<40 {
                let a = (x * 255 / 39 + y * 3) % 256
                expected += [
                    UInt8(x * 6 * a / 255), UInt8(y * 8 * a / 255), UInt8((x + y) * 3 % 256 * a / 255), UInt8(a),
                ]
            }
        }
        #expect(image.pixels.packedBytes() == expected)
        // The default is straight alpha, matching Pillow (the reference table compares it exactly).
        #expect(try TIFFCoder().decode(tiffData("gen-tiled-assoc-alpha.tif"), options: .init()).pixels.format == .rgba8)
    }

    @Test func orientationTagIsApplied() throws {
        let data = tiffData("gen-orientation6.tif")
        let raw = try TIFFCoder().decode(data, options: .init(applyOrientation: false))
        #expect(raw.size == PixelSize(width: 30, height: 20))
        #expect(raw.orientation == .right)
        let upright = try TIFFCoder().decode(data, options: .init())
        #expect(upright.size == PixelSize(width: 20, height: 30))
        #expect(upright.orientation == .up)
        #expect(upright.pixels == (try raw.pixels.applying(.right)))
        // a33.tif: a 2464x3444 G4-like LZW page whose Orientation is 8.
        let a33 = try TIFFCoder().decode(
            tiffData("a33.tif"), options: .init(thumbnailPixelSize: .init(width: 256, height: 256)))
        #expect(a33.size == PixelSize(width: 256, height: 183))
    }

    @Test func metadataIsKept() throws {
        let icc = try TIFFCoder().decode(tiffData("icc.tiff"), options: .init())
        #expect((icc.metadata.iccProfile?.count ?? 0) > 100)
        let xmp = try TIFFCoder().decode(tiffData("l1_xmp.tiff"), options: .init())
        let packet = String(decoding: try #require(xmp.metadata.xmp), as: UTF8.self)
        #expect(packet.contains("x:xmpmeta"))
        #expect(icc.format == .tiff)
    }

    @Test func sniffsClassicAndBigTIFFOnly() {
        let coder = TIFFCoder()
        #expect(coder.canDecode(Data([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0])))
        #expect(coder.canDecode(Data([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8])))
        #expect(coder.canDecode(tiffData("BigTIFF.tif")))
        #expect(coder.canDecode(Data([0x4D, 0x4D, 0x00, 0x2B, 0x00, 0x08, 0, 0])))
        #expect(!coder.canDecode(Data([0x49, 0x49, 0x2B, 0x00, 0x04, 0x00])))
        #expect(!coder.canDecode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])))
        #expect(!coder.canDecode(Data()))
        #expect(coder.decodingFormats == [.tiff])
        #expect(TIFFLibrary.version.contains("4."))
    }
}

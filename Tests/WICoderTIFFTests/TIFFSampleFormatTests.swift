import Foundation
import Testing
import WICore
import WICoderPNG
import WICoderTIFF
import WITestSupport

/// 32-bit integer, floating-point and CIE L*a*b* samples (issue 40). Pillow's own test files; the exact rows and
/// the L*a*b* PSNR rows are in tiff-reference.tsv (`TIFFReferenceTests`), the mappings are pinned here.
@Suite struct TIFFSampleFormatTests {
    func samples16(_ buffer: PixelBuffer) -> [UInt16] {
        buffer.packedBytes().withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
    }

    /// Signed 32-bit grey holding 0...65535 (Pillow's "I" TIFF of a 16-bit PGM): clipped to 16 bits, so 16-bit
    /// output has the values themselves and 8-bit output their high byte (Pillow's, exactly: the reference row).
    @Test func signed32BitGreyIsClippedToSixteenBits() throws {
        let data = tiffData("pillow-16_bit_binary_pgm.tiff")
        let wide = try TIFFCoder().decode(data, options: .init(keep16Bit: true))
        #expect(wide.size == PixelSize(width: 20, height: 100))
        #expect(wide.pixels.format == .rgba16)
        let values = Set(stride(from: 0, to: samples16(wide.pixels).count, by: 4).map { samples16(wide.pixels)[$0] })
        #expect(values.contains(65535) && values.contains(0) && values.contains(662))
        let narrow = try TIFFCoder().decode(data, options: .init())
        #expect(narrow.pixels.format == .rgba8)
        let bytes = narrow.pixels.packedBytes()
        #expect(
            zip(
                stride(from: 0, to: bytes.count, by: 4).map { bytes[$0] },
                stride(from: 0, to: bytes.count, by: 4).map { samples16(wide.pixels)[$0] >> 8 }
            )
            .allSatisfy { UInt16($0) == $1 })
    }

    /// Unsigned 32-bit RGB (a Photoshop 4 file Pillow cannot open): the top bits kept, as for every deeper unsigned
    /// sample, give exactly Pillow's 8-bit hopper.png; clipping (libvips' cast) would give a white picture.
    @Test func unsigned32BitRGBKeepsTheTopBits() throws {
        let image = try TIFFCoder().decode(tiffData("pillow-hopper_unknown_pixel_mode.tif"), options: .init())
        let png = try PNGCoder().decode(Fixtures.data("tiff/pillow-hopper.png"), options: .init())
        #expect(image.size == PixelSize(width: 128, height: 128))
        #expect(try rgba8(image.pixels) == rgba8(png.pixels))
    }

    /// Floating point: clipped to 0...255 and truncated (Pillow's "F" to "L", libvips' cast to uchar). Pillow's
    /// 10ct_32bit_128.tiff holds -3.14...3.14 with no Photometric tag (MinIsWhite by default, which Pillow's "F"
    /// ignores): 0 to 3, exactly Pillow's (reference row). image-rs's rgb32f_color.tiff holds 0...1: black, as
    /// `vips copy` gives it (Pillow cannot open it).
    @Test func floatingPointIsClippedAndTruncated() throws {
        let grey = try TIFFCoder().decode(tiffData("pillow-10ct_32bit_128.tiff"), options: .init())
        #expect(grey.size == PixelSize(width: 128, height: 128))
        let values = Set(grey.pixels.packedBytes().enumerated().filter { $0.offset % 4 == 0 }.map(\.element))
        #expect(values == [0, 1, 2, 3])
        #expect(grey.pixels.color(x: 0, y: 0) == RGBAColor(red: 0, green: 0, blue: 0))  // -0.45
        #expect(grey.pixels.color(x: 1, y: 0) == RGBAColor(red: 2, green: 2, blue: 2))  // 2.06
        let rgb = try TIFFCoder().decode(tiffData("rgb32f_color.tiff"), options: .init())
        #expect(rgb.size == PixelSize(width: 32, height: 32))
        #expect(rgb.pixels.isOpaque)
        #expect(rgb.pixels.packedBytes().enumerated().allSatisfy { $0.offset % 4 == 3 || $0.element == 0 })
        // 64-bit floats (the same values, widened: make-tiff-crafted-fixtures.py; Pillow cannot read them) likewise.
        let wide = try TIFFCoder().decode(tiffData("gen-float64-grey.tif"), options: .init())
        #expect(wide.pixels == grey.pixels)
        // No 16-bit output from floating point: the samples are reduced to 8 bits.
        #expect(
            try TIFFCoder().decode(tiffData("pillow-10ct_32bit_128.tiff"), options: .init(keep16Bit: true))
                .pixels.format == .rgba8)
    }

    /// L*a*b* to sRGB with a D50 white, as Pillow's LittleCMS transform (PSNR per file in tiff-reference rows):
    /// L* 100 is white, Pillow's "red" and "green" test patches come out red and green.
    @Test func labIsConvertedWithAD50White() throws {
        let white = try TIFFCoder().decode(tiffData("pillow-lab.tif"), options: .init())
        #expect(white.pixels.color(x: 0, y: 0) == RGBAColor(red: 255, green: 255, blue: 255))
        let red = try TIFFCoder().decode(tiffData("pillow-lab-red.tif"), options: .init()).pixels.color(x: 5, y: 5)
        #expect(red.red > 250 && red.green < 5 && (120...128).contains(red.blue))  // Pillow: 253, 0, 125
        let green = try TIFFCoder().decode(tiffData("pillow-lab-green.tif"), options: .init()).pixels.color(x: 5, y: 5)
        #expect(green == RGBAColor(red: 0, green: 152, blue: 117))  // Pillow's exactly
    }

    /// The same L*a*b* values as 16-bit CIELab and as 8-bit ICCLab (make-tiff-crafted-fixtures.py; Pillow reads
    /// neither) give exactly the pixels of Pillow's 8-bit CIELab hopper.Lab.tif.
    @Test func labSixteenBitAndICCLabEncodeTheSameColours() throws {
        let reference = try TIFFCoder().decode(tiffData("pillow-hopper.Lab.tif"), options: .init())
        for file in ["gen-lab16-cielab.tif", "gen-icclab8.tif"] {
            let image = try TIFFCoder().decode(tiffData(file), options: .init(keep16Bit: true))
            #expect(image.pixels.format == .rgba8, "\(file)")  // L*a*b* converts to 8-bit sRGB
            #expect(image.pixels == reference.pixels, "\(file)")
        }
    }
}

import Foundation
import Testing
import WICore
import WICoderPNG
import WICoderTIFF
import WITestSupport

/// Every TIFF fixture Pillow decodes, page by page, against Pillow's RGBA8 (refdecode.py): bit-exact for every
/// lossless RGB/grey/palette/CMYK file (1-16 bits, MinIsWhite, associated and unassociated alpha, strips and tiles,
/// planar, every compression), PSNR for JPEG-compressed and CIELab ones. The table's header (and
/// make-tiff-reference.sh) says where Pillow itself deviates: it orients pages it decodes through libtiff, and it
/// keeps 12-bit samples unscaled (the table holds those pages reduced v >> 4).
@Suite struct TIFFReferenceTests {
    /// JPEG-in-TIFF: Debian's libjpeg-turbo 2.1.5 against Pillow's bundled 3.x (IDCT and upsampling differ slightly).
    static let jpegMinimumPSNR = 40.0
    /// CIELab: our D50 L*a*b* to sRGB against Pillow's LittleCMS transform (8-bit tables): 48.1-51.7 dB, measured
    /// 2026-11-28 (libtiff's RGBA interface, D65 and its own display, was 24-32 dB; libvips, also D65, is 31-47 dB
    /// from Pillow).
    static let labMinimumPSNR = 45.0

    /// Pillow decodes this fuzzed 157x151 16-bit file by reading its strips back to back from the first offset; its
    /// StripByteCounts are garbage (1296891946...), which libtiff will not read past, so rows 25 on are padded.
    static let libtiffRefuses = "grey16-bigendian-fuzz.tif"

    @Test(arguments: TIFFReference.all.filter { $0.file != libtiffRefuses })
    func matchesPillow(reference: TIFFReference) throws {
        let data = tiffData(reference.file)
        let coder = TIFFCoder()
        for (index, page) in reference.pages.enumerated() {
            let image = try coder.decodePage(
                index, of: data, options: .init(applyOrientation: reference.pillowOriented))
            #expect(image.size == page.size, "page \(index)")
            #expect(image.pixels.format == .rgba8)
            if reference.byPSNR {
                let png = try PNGCoder().decode(Fixtures.data("tiff/reference/\(reference.file).png"), options: .init())
                let psnr = try #require(image.pixels.psnr(against: png.pixels))
                let minimum = reference.compression == 7 ? Self.jpegMinimumPSNR : Self.labMinimumPSNR
                #expect(psnr >= minimum, "\(psnr) dB")
            } else {
                #expect(SHA256.hex(try rgba8(image.pixels)) == page.sha256, "page \(index)")
            }
        }
    }

    @Test func bogusStripByteCountsGiveAPaddedIncompleteImage() throws {
        let image = try TIFFCoder().decode(tiffData(Self.libtiffRefuses), options: .init())
        #expect(image.size == PixelSize(width: 157, height: 151))
        #expect(image.flags == .incomplete)
        // Rows 0-24 decoded (grey, not black); row 25 on is padding (zero samples: opaque black).
        #expect(image.pixels.color(x: 150, y: 24) != RGBAColor(red: 0, green: 0, blue: 0))
        #expect(image.pixels.color(x: 150, y: 25) == RGBAColor(red: 0, green: 0, blue: 0))
    }

    @Test func theTableCoversTheLayouts() {
        #expect(TIFFReference.all.count == 66)
        #expect(
            TIFFReference.all.filter(\.byPSNR).map(\.file)
                == [
                    "ColorCheckerCalculator-lab.tif", "extract-jpeg.tiff", "jpeg-planar-rgba-clusterfuzz.tif",
                    "pillow-hopper.Lab.tif", "pillow-lab-green.tif", "pillow-lab-red.tif", "pillow-lab.tif",
                ])
        #expect(TIFFReference.all.filter(\.pillowOriented).map(\.file) == ["gen-orientation6.tif"])
        let compressions = Set(TIFFReference.all.map(\.compression))
        // none, CCITT RLE, G3, G4, LZW, JPEG, Deflate, PackBits
        #expect(compressions == [1, 2, 3, 4, 5, 7, 8, 32773])
    }
}

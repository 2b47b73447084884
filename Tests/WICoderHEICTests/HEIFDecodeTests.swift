import Foundation
import Testing
import WICore
import WICoderHEIC
import WITestSupport

@Suite struct HEIFDecodeTests {
    private func decode(_ file: String, _ options: DecodeOptions = .init()) throws -> Image {
        try HEIFCoder().decode(Fixtures.data(file), options: options)
    }

    @Test func libheifBuildHasEveryCodec() {
        #expect(HEIFLibrary.version == "1.15.1")
        #expect(HEIFLibrary.decodesHEVC && HEIFLibrary.decodesAV1)
        #expect(HEIFLibrary.encodesHEVC && HEIFLibrary.encodesAV1)
        #expect(HEIFCoder().decodingFormats == [.heic, .heif, .avif])
    }

    @Test func sniffsFtypBrandsOnly() {
        let coder = HEIFCoder()
        for file in ["formats/sample.heic", "formats/sample-heix.heic", "formats/sample.heif", "formats/sample.avif"] {
            #expect(coder.canDecode(Fixtures.data(file)), "\(file)")
        }
        for file in ["formats/sample.png", "formats/sample.jpg", "formats/sample.webp"] {
            #expect(!coder.canDecode(Fixtures.data(file)), "\(file)")
        }
        func ftyp(_ major: String, _ compatible: [String]) -> Data {
            let brands = ([major, "\0\0\0\0"] + compatible).flatMap { Array($0.utf8) }
            let size = 8 + brands.count
            return Data([0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + brands)
        }
        for major in ["heic", "heix", "hevc", "hevx", "mif1", "msf1", "avif", "avis"] {
            #expect(coder.canDecode(ftyp(major, [])), "\(major)")
        }
        #expect(coder.canDecode(ftyp("miaf", ["avif"])))  // compatible brand only
        #expect(coder.canDecode(ftyp("miaf", ["heic"])))
        #expect(!coder.canDecode(ftyp("isom", ["mp41"])))  // an MP4
        #expect(!coder.canDecode(ftyp("crx ", [])))  // Canon raw
        #expect(!coder.canDecode(Data("ftyp".utf8)))
    }

    @Test func formatsFollowTheMajorBrand() throws {
        #expect(try decode("formats/sample.heic").format == .heic)
        #expect(try decode("formats/sample.heif").format == .heif)  // mif1 / mif1 heic, as SDWebImage
        #expect(try decode("heic/hat.avif").format == .avif)
    }

    @Test func hevcMatchesPillowHeifExactlyOrWithinOneLevel() throws {
        // sample.heif decodes identically in libheif 1.15.1 and pillow-heif's libheif 1.23.6.
        let heif = try decode("formats/sample.heif")
        #expect(heif.size == PixelSize(width: 1440, height: 960))
        #expect(
            SHA256.hex(heif.pixels.packedBytes())
                == "a6403733ad72a22bcf90df4b15b49f9e8c5bb5fcf851a93d9c0b78c5a073fe38")
        // The rest differ by at most one level (YCbCr to RGB rounding), two for 10-bit sources (depth reduction).
        let cases: [(file: String, reference: String, psnr: Double, maxDifference: Int)] = [
            ("heic/hat.heic", "heic/reference/heic-hat.heic.png", 65.0, 1),
            ("heic/gradient-alpha.heic", "heic/reference/heic-gradient-alpha.heic.png", 61.5, 1),
            ("heic/gradient-10b-alpha.heic", "heic/reference/heic-gradient-10b-alpha.heic.png", 51.5, 2),
            ("formats/sample-heix.heic", "heic/reference/formats-sample-heix.heic.png", 51.0, 2),
        ]
        for c in cases {
            let image = try decode(c.file)
            let reference = try PixelComparison.png(c.reference)
            #expect(try PixelComparison.psnr(image.pixels, reference) >= c.psnr, "\(c.file)")
            #expect(try PixelComparison.maxDifference(image.pixels, reference) <= c.maxDifference, "\(c.file)")
        }
        // sample.heic is a 3x2 grid of 512x512 tiles cropped to 1440x960; the crop straddles the row boundary at y 512.
        let big = try decode("formats/sample.heic")
        let crop = try PixelComparison.crop(big.pixels, x: 672, y: 432, width: 96, height: 96)
        let reference = try PixelComparison.png("heic/reference/formats-sample-crop672x432.heic.png")
        #expect(try PixelComparison.psnr(crop, reference) >= 61.3)  // measured 61.59 dB
        #expect(try PixelComparison.maxDifference(crop, reference) <= 1)
    }

    @Test func av1MatchesPillowHeifWithinMeasuredPSNR() throws {
        // libheif 1.15's AV1 path (dav1d, its own chroma upsampling) differs from pillow-heif's libheif 1.23.6;
        // thresholds are the measured PSNR minus 0.3 dB.
        let cases: [(file: String, reference: String, psnr: Double)] = [
            ("heic/hat.avif", "heic/reference/heic-hat.avif.png", 37.1),  // 37.41
            ("heic/gradient-alpha.avif", "heic/reference/heic-gradient-alpha.avif.png", 43.7),  // 44.08
        ]
        for c in cases {
            let image = try decode(c.file)
            #expect(try PixelComparison.psnr(image.pixels, PixelComparison.png(c.reference)) >= c.psnr, "\(c.file)")
        }
        let hdr = try decode("formats/sample.avif")  // 10-bit BT.2020 PQ
        #expect(hdr.size == PixelSize(width: 2048, height: 858))
        let crop = try PixelComparison.crop(hdr.pixels, x: 976, y: 381, width: 96, height: 96)
        #expect(
            try PixelComparison.psnr(crop, PixelComparison.png("heic/reference/formats-sample-crop976x381.avif.png"))
                >= 45.3)  // 45.57
    }

    @Test func lossyFixturesAreCloseToTheirSourcePNGs() throws {
        // Quality 90 from Tests/Fixtures/heic/source-*.png (make-heic-fixtures.sh); measured minus 0.3 dB.
        let hat = try PixelComparison.png("heic/source-hat.png")
        #expect(try PixelComparison.psnr(decode("heic/hat.heic").pixels, hat) >= 30.2)  // 30.50
        #expect(try PixelComparison.psnr(decode("heic/hat.avif").pixels, hat) >= 30.0)  // 30.32
        let gradient = try PixelComparison.png("heic/source-gradient-alpha.png")
        #expect(try PixelComparison.psnr(decode("heic/gradient-alpha.heic").pixels, gradient) >= 43.9)  // 44.20
        #expect(try PixelComparison.psnr(decode("heic/gradient-alpha.avif").pixels, gradient) >= 43.8)  // 44.11
    }
}

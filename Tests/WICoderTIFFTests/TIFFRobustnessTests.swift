import Foundation
import Testing
import WICore
import WICoderTIFF
import WITestSupport

/// Files Pillow refuses, truncated and bit-flipped files: a typed error or an image, never a crash, never slow.
@Suite struct TIFFRobustnessTests {
    static let files = [
        "gen-tiled-assoc-alpha.tif", "gen-planar-rgb16-lzw.tif", "gen-palette4-packbits.tif",
        "gen-cmyk-tiled-deflate.tif", "fax4.tiff", "ccitt3_2d.tiff", "extract-jpeg.tiff",
        "jpeg-planar-rgba-clusterfuzz.tif", "BigTIFFLong8Tiles.tif", "emptyexiftag-3pages.tif",
        "ColorCheckerCalculator-lab.tif", "alpha_predictor.tiff", "pillow-10ct_32bit_128.tiff",
        "gen-float64-grey.tif", "pillow-16_bit_binary_pgm.tiff", "pillow-hopper.Lab.tif",
        "gen-ifd-loop-to-second.tif", "gen-lab16-cielab.tif",
    ]

    @Test(arguments: files)
    func truncatedAt32Offsets(file: String) {
        let cuts = DataMutations.truncated(tiffData(file))
        let survey = DataMutations.survey(cuts) { data throws(ImageError) in
            try TIFFCoder(decodesAllPages: true).decode(data, options: .init())
        }
        #expect(survey.decoded + survey.failed == cuts.count)
        #expect(survey.unexpected == [])
        #expect(survey.slowest < .seconds(1))
    }

    @Test(arguments: files)
    func hundredBitFlippedCopies(file: String) {
        let survey = DataMutations.survey(DataMutations.bitFlipped(tiffData(file))) { data throws(ImageError) in
            try TIFFCoder(decodesAllPages: true).decode(
                data, options: .init(thumbnailPixelSize: .init(width: 32, height: 32)))
        }
        #expect(survey.decoded + survey.failed == 100)
        #expect(survey.unexpected == [])
        #expect(survey.slowest < .seconds(1))
    }

    /// The corpus TIFFs that Pillow refuses (fuzzer finds, float samples, broken IFD chains, 10-bit grey).
    @Test func filesPillowRefusesGiveTypedErrorsOrImages() {
        let names = Fixtures.files(in: "tiff/hostile")
        #expect(names.count == 31)
        let inputs = names.map { tiffData("hostile/\($0)") }
        let survey = DataMutations.survey(inputs) { data throws(ImageError) in
            try TIFFCoder(decodesAllPages: true).decode(data, options: .init())
        }
        #expect(survey.decoded + survey.failed == 31)
        #expect(survey.unexpected == [])
        #expect(survey.slowest < .seconds(1))
    }

    @Test func errorsCarryLibtiffsMessage() {
        do {
            _ = try TIFFCoder().decode(Data([0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0xFF, 0x7F]), options: .init())
            Issue.record("a directory offset past the end decoded")
        } catch {
            #expect(error.code == .badImageData)
            #expect(error.message.hasPrefix("TIFF: "))
            #expect(error.message.count > "TIFF: ".count + 5)
        }
        #expect(throws: ImageError.self) { try TIFFCoder().decode(Data(), options: .init()) }
    }
}

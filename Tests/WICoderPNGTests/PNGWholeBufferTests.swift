import Foundation
import Testing
import WICore
@testable import WICoderPNG
import WITestSupport

/// The whole-buffer path of one-shot decodes (CPNGShim's image_data_decode.c: libdeflate and our own unfiltering)
/// against libpng's rows: every PNG fixture, and image data damaged in each way the path checks, comes out the same
/// through both, and the path is taken exactly where it should be.
@Suite struct PNGWholeBufferTests {
    /// What one decode gave: size, packed pixels and metadata, or the error's code and message.
    struct Outcome: Equatable, CustomStringConvertible {
        var size: PixelSize?
        var pixels: [UInt8] = []
        var icc: Data?
        var exif: Data?
        var error: String?

        var description: String { error ?? "\(size.map { "\($0.width)x\($0.height)" } ?? "-") \(SHA256.hex(pixels))" }
    }

    /// Decodes `data` through one path; also says whether the whole-buffer path finished the image data.
    static func decode(_ data: Data, wholeBuffer: Bool, options: DecodeOptions = .init()) -> (Outcome, Bool) {
        let handle: PNGDecoderHandle
        do {
            handle = try PNGDecoderHandle(options: options)
        } catch {
            return (Outcome(error: "\(error.code) \(error.message)"), false)
        }
        do {
            try handle.decode(data, wholeBuffer: wholeBuffer)
            let image = try handle.finalImage()
            return (
                Outcome(
                    size: image.size, pixels: image.pixels.packedBytes(), icc: image.metadata.iccProfile,
                    exif: image.metadata.exif), handle.inflatedWhole
            )
        } catch {
            return (Outcome(error: "\(error.code) \(error.message)"), handle.inflatedWhole)
        }
    }

    /// Both paths' outcomes (expected equal) and whether the whole-buffer path was taken.
    static func compare(_ data: Data, options: DecodeOptions = .init()) -> (
        whole: Outcome, libpng: Outcome, taken: Bool
    ) {
        let (whole, taken) = decode(data, wholeBuffer: true, options: options)
        let (libpng, libpngTook) = decode(data, wholeBuffer: false, options: options)
        #expect(!libpngTook)
        return (whole, libpng, taken)
    }

    /// Every .png under Tests/Fixtures, relative paths, sorted.
    static let fixtures: [String] = {
        let root = Fixtures.directory
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var found: [String] = []
        while let url = walker?.nextObject() as? URL {
            if url.pathExtension == "png" { found.append(String(url.path.dropFirst(root.path.count + 1))) }
        }
        return found.sorted()
    }()

    @Test func everyFixtureDecodesTheSameThroughBothPaths() {
        #expect(Self.fixtures.count >= 276)
        var taken = 0
        for file in Self.fixtures {
            let result = Self.compare(Fixtures.data(file))
            #expect(result.whole == result.libpng, "\(file)")
            if result.taken { taken += 1 }
        }
        #expect(taken >= 194)
    }

    @Test func pngSuiteTakesThePathForTheCommonLayoutsOnly() {
        let suite = Fixtures.files(in: "pngsuite", withExtension: "png")
        var taken: [String] = []
        for file in suite {
            let result = Self.compare(Fixtures.data("pngsuite/\(file)"))
            #expect(result.whole == result.libpng, "\(file)")
            if result.taken { taken.append(String(file.dropLast(4))) }
        }
        #expect(suite.count == 175)
        #expect(taken.count == 98)
        // Grey at every depth up to 8, palette at every depth, grey+alpha, RGB, RGBA; tRNS keys and palette alpha.
        for name in [
            "basn0g01", "basn0g02", "basn0g04", "basn0g08", "basn2c08", "basn3p01", "basn3p02", "basn3p04",
            "basn3p08", "basn4a08", "basn6a08", "tbbn0g04", "tbrn2c08", "tbbn3p08", "tm3n3p02", "f04n2c08",
        ] {
            #expect(taken.contains(name), "\(name)")
        }
        // Adam7, 16-bit samples and the corrupt files stay with libpng.
        for name in ["basi0g08", "basi6a08", "basn0g16", "basn6a16", "tbwn0g16", "xcrn0g04", "xhdn0g08"] {
            #expect(!taken.contains(name), "\(name)")
        }
    }

    @Test(arguments: [
        "png/indexed-4bit-trns.png", "png/exif-orientation6-iccp.png", "pngsuite/basn6a08.png",
        "pngsuite/tbbn3p08.png", "pngsuite/f04n2c08.png", "formats/sample.png",
    ])
    func damagedCopiesDecodeTheSameThroughBothPaths(file: String) {
        let data = Fixtures.data(file)
        for copy in DataMutations.bitFlipped(data) + DataMutations.truncated(data) {
            let result = Self.compare(copy)
            #expect(result.whole == result.libpng)
        }
    }
}

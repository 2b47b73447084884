import Foundation
import Testing
import WICoderJPEG
import WICoderPNG
import WICore
import WIColor
import WITestSupport

/// `.sRGB` decodes against Little CMS's own tificc (Tests/Fixtures/make-color-fixtures.py): one real profile each.
@Suite struct ColorReferenceTests {
    static let coders = ImageCodersManager(coders: [PNGCoder(), JPEGCoder()], colorConverter: LittleCMSConverter())

    static var sRGB: DecodeOptions {
        var options = DecodeOptions()
        options.targetColorSpace = .sRGB
        return options
    }

    /// Each fixture, the PSNR its `.sRGB` decode must reach against the reference, and the most its unconverted
    /// pixels reach (so that the comparison can tell a conversion from none).
    static let cases: [(fixture: String, unconvertedBelow: Double)] = [
        ("p3.jpg", 40), ("p3-alpha.png", 40), ("adobergb.jpg", 30), ("prophoto16.png", 30), ("gray.png", 20),
        ("cmyk.jpg", 20), ("gama-chrm.png", 30), ("cicp-p3.png", 40),
    ]

    @Test(arguments: cases)
    func convertsLikeLittleCMS(_ fixture: String, _ unconvertedBelow: Double) throws {
        let data = Fixtures.data("color/\(fixture)")
        let reference = try Self.coders.decode(Fixtures.data("color/\(referenceName(fixture))"), options: .init())
        let converted = try Self.coders.decode(data, options: Self.sRGB)
        #expect(converted.pixels.format == .rgba8)
        #expect(converted.metadata.iccProfile == nil && converted.metadata.colorDescription == nil)
        #expect(converted.decodeOptions == Self.sRGB)
        let psnr = try #require(converted.pixels.psnr(against: reference.pixels))
        #expect(psnr >= 45, "\(fixture): \(psnr) dB")
        let preserved = try Self.coders.decode(data, options: .init())
        #expect(preserved.metadata.describesNonSRGBColor)
        let unconverted = try #require(preserved.pixels.psnr(against: reference.pixels))
        #expect(unconverted < unconvertedBelow, "\(fixture) unconverted: \(unconverted) dB")
    }

    @Test func sixteenBitSourcesConvertAtSixteenBits() throws {
        var options = Self.sRGB
        options.keep16Bit = true
        let image = try Self.coders.decode(Fixtures.data("color/prophoto16.png"), options: options)
        #expect(image.pixels.format == .rgba16)
        let reference = try Self.coders.decode(Fixtures.data("color/prophoto16.ref.png"), options: .init())
        let psnr = try #require(image.pixels.psnr(against: reference.pixels))
        #expect(psnr >= 45, "\(psnr) dB")
    }

    @Test func thumbnailsConvertAtTheirOwnSize() throws {
        var options = Self.sRGB
        options.thumbnailPixelSize = PixelSize(width: 16, height: 16)
        let data = Fixtures.data("color/p3.jpg")
        let thumbnail = try Self.coders.decode(data, options: options)
        #expect(thumbnail.size == PixelSize(width: 16, height: 16))
        #expect(thumbnail.flags.contains(.thumbnail))
        // The same thumbnail decoded unconverted, then converted: the very same pixels.
        let preserved = try Self.coders.decode(
            data, options: .init(thumbnailPixelSize: PixelSize(width: 16, height: 16)))
        let expected = try #require(
            try LittleCMSConverter().convertToSRGB(preserved.pixels, describedBy: preserved.metadata, keep16Bit: false))
        #expect(thumbnail.pixels == expected)
    }

    @Test func premultipliedOutputIsPremultipliedAfterTheConversion() throws {
        var options = Self.sRGB
        options.premultipliedAlpha = true
        let data = Fixtures.data("color/p3-alpha.png")
        let image = try Self.coders.decode(data, options: options)
        #expect(image.pixels.format == .premultipliedRGBA8)
        let straight = try Self.coders.decode(data, options: Self.sRGB)
        #expect(image.pixels == (try straight.pixels.converted(to: .premultipliedRGBA8)))
        #expect(image.decodeOptions == options)
    }

    @Test func anUnusableProfileLeavesThePixelsAsDecoded() throws {
        let data = Fixtures.data("color/bad-profile.jpg")
        let preserved = try Self.coders.decode(data, options: .init())
        #expect(preserved.metadata.iccProfile != nil)
        let image = try Self.coders.decode(data, options: Self.sRGB)
        #expect(image.pixels == preserved.pixels)
        #expect(image.metadata.iccProfile == nil)
    }

    @Test func aManagerWithoutConverterRefusesProfiles() throws {
        let plain = ImageCodersManager(coders: [PNGCoder(), JPEGCoder()])
        let error = #expect(throws: ImageError.self) {
            try plain.decode(Fixtures.data("color/p3.jpg"), options: Self.sRGB)
        }
        #expect(error?.code == .unsupportedFormat)
        // Nothing to convert: decoded as asked.
        let image = try plain.decode(Fixtures.data("color/gray.ref.png"), options: Self.sRGB)
        #expect(image.size == PixelSize(width: 64, height: 64))
    }

    @Test func incrementalDecodesEndAsTheOneShotDecode() throws {
        // Chunks of 1 KiB through the manager's incremental decoder: partial images are converted too, and the
        // final image is the one-shot decode's (the CMYK samples kept and converted in the JPEG coder).
        for fixture in ["cmyk.jpg", "p3.jpg", "prophoto16.png"] {
            let data = Fixtures.data("color/\(fixture)")
            let decoder = try #require(Self.coders.makeIncrementalDecoder(header: data.prefix(64), options: Self.sRGB))
            var partials = 0
            for start in stride(from: 0, to: data.count, by: 1024) {
                if try decoder.append(data[start..<min(start + 1024, data.count)]),
                    let partial = decoder.currentImage()
                {
                    #expect(partial.metadata.iccProfile == nil && partial.pixels.format == .rgba8, "\(fixture)")
                    partials += 1
                }
            }
            let final = try decoder.finish()
            let oneShot = try Self.coders.decode(data, options: Self.sRGB)
            #expect(final.pixels == oneShot.pixels, "\(fixture)")
            #expect(final.metadata.iccProfile == nil && partials > 0, "\(fixture)")
        }
    }

    @Test func cmykWithoutConverterKeepsTheNaiveFormula() throws {
        // Only the manager's converter reaches the coder: a JPEGCoder called alone decodes CMYK as before.
        let data = Fixtures.data("color/cmyk.jpg")
        let alone = try JPEGCoder().decode(data, options: Self.sRGB)
        let preserved = try Self.coders.decode(data, options: .init())
        #expect(alone.pixels == preserved.pixels)
        #expect(alone.metadata.iccProfile == preserved.metadata.iccProfile)
    }

    private func referenceName(_ fixture: String) -> String {
        let stem = fixture.split(separator: ".").first.map(String.init) ?? fixture
        return "\(stem).ref.png"
    }
}

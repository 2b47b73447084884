import Foundation
import Testing
import WICoderHEIC
import WICoderJPEG
import WICoderJXL
import WICoderPNG
import WICoderTIFF
import WICoderWebP
import WICore
import WIColor
import WITestSupport

/// What each coder reports of a file's colours (`ImageMetadata.iccProfile`, `.colorDescription`).
@Suite struct ColorDescriptionTests {
    /// The Display P3 profile embedded in color/p3.jpg, p3.webp and p3.tif (Apple's, 548 bytes).
    static var p3Profile: Data {
        get throws {
            try #require(try JPEGCoder().decode(Fixtures.data("color/p3.jpg"), options: .init()).metadata.iccProfile)
        }
    }

    @Test func jpegReportsItsAPP2Profile() throws {
        let profile = try Self.p3Profile
        #expect(profile.count == 548)
        #expect(Array(profile[36..<40]) == Array("acsp".utf8))
        #expect(Array(profile[16..<20]) == Array("RGB ".utf8))
    }

    @Test func jpegReportsACMYKProfile() throws {
        let image = try JPEGCoder().decode(Fixtures.data("color/cmyk.jpg"), options: .init())
        let profile = try #require(image.metadata.iccProfile)
        #expect(profile.count == 187_484)
        #expect(Array(profile[16..<20]) == Array("CMYK".utf8))
    }

    @Test func pngReportsICCPAndItsOtherChunks() throws {
        let png = PNGCoder()
        let iccp = try png.decode(Fixtures.data("color/p3-alpha.png"), options: .init()).metadata
        #expect(iccp.iccProfile?.count == 536)
        // This file also has a cHRM chunk (of sRGB's values): both are kept, and converters use the profile.
        guard case .calibrated(nil, let chrm?) = iccp.colorDescription else {
            Issue.record("iCCP + cHRM gave \(String(describing: iccp.colorDescription))")
            return
        }
        #expect(chrm.redX == 0.64 && chrm.greenY == 0.6 && chrm.whiteX == 0.3127)
        let grey = try png.decode(Fixtures.data("color/gray.png"), options: .init()).metadata
        #expect(Array(try #require(grey.iccProfile)[16..<20]) == Array("GRAY".utf8))
        let gamma = try png.decode(Fixtures.data("color/gama-chrm.png"), options: .init()).metadata
        let p3 = ImageMetadata.Chromaticities(
            whiteX: 0.3127, whiteY: 0.329, redX: 0.68, redY: 0.32, greenX: 0.265, greenY: 0.69, blueX: 0.15,
            blueY: 0.06)
        guard case .calibrated(let fileGamma, let chromaticities) = gamma.colorDescription else {
            Issue.record("gAMA + cHRM gave \(String(describing: gamma.colorDescription))")
            return
        }
        #expect(fileGamma == 0.5)
        let c = try #require(chromaticities)
        let pairs = [(c.whiteX, p3.whiteX), (c.redX, p3.redX), (c.greenY, p3.greenY), (c.blueY, p3.blueY)]
        #expect(pairs.allSatisfy { abs($0 - $1) < 1e-5 })
        let cicp = try png.decode(Fixtures.data("color/cicp-p3.png"), options: .init()).metadata
        #expect(cicp.colorDescription == .cicp(.init(primaries: 12, transfer: 13, matrix: 0, fullRange: true)))
        let srgb = try png.decode(Fixtures.data("color/srgb-chunk.png"), options: .init()).metadata
        #expect(srgb.colorDescription == .sRGB)
        #expect(!srgb.describesNonSRGBColor)
        // PngSuite's gamma files: gAMA alone.
        let g03 = try png.decode(Fixtures.data("pngsuite/g03n2c08.png"), options: .init()).metadata
        #expect(g03.colorDescription == .calibrated(fileGamma: 0.35, chromaticities: nil))
    }

    @Test func webpReportsICCP() throws {
        let image = try WebPCoder().decode(Fixtures.data("color/p3.webp"), options: .init())
        #expect(image.metadata.iccProfile == (try Self.p3Profile))
    }

    @Test func tiffReportsItsICCTag() throws {
        let image = try TIFFCoder().decode(Fixtures.data("color/p3.tif"), options: .init())
        #expect(image.metadata.iccProfile == (try Self.p3Profile))
    }

    @Test func jxlReportsTheProfileOfItsPixels() throws {
        // libjxl's conformance file with an ICC profile, and a file with an encoded (sRGB) colour space, for which
        // libjxl writes the profile.
        let withICC = try JXLCoder().decode(Fixtures.data("jxl/lossy_with_icc.jxl"), options: .init())
        let profile = try #require(withICC.metadata.iccProfile)
        #expect(Array(profile[36..<40]) == Array("acsp".utf8))
        let encoded = try JXLCoder().decode(Fixtures.data("jxl/basic.jxl"), options: .init())
        let synthesized = try #require(encoded.metadata.iccProfile)
        #expect(Array(synthesized[36..<40]) == Array("acsp".utf8))
        #expect(Array(synthesized[16..<20]) == Array("RGB ".utf8))
    }

    @Test func jxlAnimationsReportTheirProfileAndConvertEveryFrame() throws {
        let data = Fixtures.data("jxl/5_frames_numbered_jxli.jxl")
        let onDemand = try JXLCoder().decode(data, options: .init())
        #expect(onDemand.frameBuffer != nil && onDemand.frameCount == 5)
        #expect(onDemand.metadata.iccProfile != nil)
        // Frames on demand would escape the conversion: the manager decodes them all, converted.
        let coders = ImageCodersManager(coders: [JXLCoder()], colorConverter: LittleCMSConverter())
        var options = DecodeOptions()
        options.targetColorSpace = .sRGB
        let converted = try coders.decode(data, options: options)
        #expect(converted.frameBuffer == nil && converted.frameCount == 5)
        #expect(converted.metadata.iccProfile == nil)
        #expect(converted.durations == onDemand.durations)
    }

    @Test func heifReportsARealDisplayP3Profile() throws {
        // Kingfisher's 10-bit Display P3 HEIC: a `colr` box of type `prof` (536 bytes).
        let image = try HEIFCoder().decode(Fixtures.data("color/p3-10bit-alpha.heic"), options: .init())
        let profile = try #require(image.metadata.iccProfile)
        #expect(profile.count == 536)
        #expect(Array(profile[16..<20]) == Array("RGB ".utf8))
        #expect(image.metadata.colorDescription == nil)
    }

    @Test func avifReportsItsNclx() throws {
        // nclx 2/2/6, full range: unspecified primaries and transfer (taken as sRGB: nothing to convert with).
        let image = try HEIFCoder().decode(Fixtures.data("heic/gradient-alpha.avif"), options: .init())
        #expect(image.metadata.colorDescription == .cicp(.init(primaries: 2, transfer: 2, matrix: 6, fullRange: true)))
        #expect(image.metadata.iccProfile == nil)
    }

    @Test func heifReportsItsColrProfile() throws {
        // libheif writes the profile as a `colr` box of type `prof`; decoding reads it back.
        let source = try PNGCoder().decode(Fixtures.data("color/p3-alpha.png"), options: .init())
        let heic = try HEIFCoder().encode(source, as: .heic, options: .init(quality: 0.9))
        let image = try HEIFCoder().decode(heic, options: .init())
        #expect(image.metadata.iccProfile == source.metadata.iccProfile)
    }
}

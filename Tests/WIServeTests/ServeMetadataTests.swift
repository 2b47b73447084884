import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage
import WITestServer
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// Answers carry no EXIF or XMP unless the operator asks (`--keep-metadata`, `--keep-copyright`): a camera photo
/// with a GPS position, a camera model, Artist and Copyright, XMP and a Display P3 profile, through every format.
/// Answers are sRGB, so the profile goes too.
@Suite struct ServeMetadataTests {
    typealias H = ServeHarness

    /// What identifies the photographer's place and device in the source, as bytes that must not reach a client.
    static let camera = Data("NIKON D800E".utf8)
    static let artist = Data("Nicolas Cornet".utf8)
    static let formats: [(String, ImageFormat)] = [
        ("jpeg", .jpeg), ("png", .png), ("webp", .webp), ("avif", .avif),
        ("heic", .heic), ("gif", .gif),
    ]

    static func source() throws -> Image {
        try H.coders.decode(try Data(contentsOf: Fixtures.url("attention/anemone.jpg")), options: DecodeOptions())
    }

    @Test func theSourceCarriesWhatMustBeStripped() throws {
        let source = try Self.source()
        let exif = try #require(source.metadata.exif)
        #expect(exif.range(of: Self.camera) != nil && exif.range(of: Self.artist) != nil)
        #expect(source.metadata.xmp != nil && source.metadata.iccProfile != nil)
        #expect(source.size == PixelSize(width: 600, height: 400))
    }

    @Test(arguments: formats)
    func answersCarryNoEXIFOrXMPByDefault(name: String, format: ImageFormat) async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration()) { _, client in
            let response = try await client.execute(
                uri: "/unsafe/120x80/filters:format(\(name))/\(h.url("/photo.jpg"))",
                method: .get)
            #expect(response.status == .ok)
            let data = H.data(response)
            #expect(data.range(of: Self.camera) == nil, "\(name)")
            #expect(data.range(of: Self.artist) == nil, "\(name)")
            #expect(data.range(of: Data("Exif\0\0".utf8)) == nil, "\(name)")
            #expect(data.range(of: Data("http://ns.adobe.com/xap".utf8)) == nil, "\(name)")
            let image = try H.image(response)
            #expect(image.metadata.exif == nil && image.metadata.xmp == nil, "\(name)")
            #expect(image.size == PixelSize(width: 120, height: 80))
        }
    }

    @Test func answersAreSRGBAndCarryNoProfile() async throws {
        // The Display P3 photo is converted (ServeColorTests compares the pixels); its profile is not passed on.
        let h = try await ServeHarness()
        #expect(try Self.source().metadata.iccProfile != nil)
        try await h.withServer(H.configuration()) { _, client in
            for name in ["jpeg", "png", "webp"] {
                let response = try await client.execute(
                    uri: "/unsafe/120x80/filters:format(\(name))/\(h.url("/photo.jpg"))", method: .get)
                #expect(try H.image(response).metadata.iccProfile == nil, "\(name)")
                #expect(H.data(response).range(of: Data("ICC_PROFILE\0".utf8)) == nil, "\(name)")
            }
        }
    }

    @Test func keepCopyrightKeepsArtistAndCopyrightAlone() async throws {
        let h = try await ServeHarness()
        let source = try Self.source()
        let expected = try #require(source.metadata.removingPersonalData(keepingCopyright: true).exif)
        try await h.withServer(H.configuration { $0.keepCopyright = true }) { _, client in
            for name in ["jpeg", "png", "webp"] {
                let response = try await client.execute(
                    uri: "/unsafe/120x80/filters:format(\(name))/\(h.url("/photo.jpg"))", method: .get)
                let data = H.data(response)
                #expect(data.range(of: Self.camera) == nil, "\(name)")
                let image = try H.image(response)
                #expect(image.metadata.exif == expected, "\(name)")
                #expect(image.metadata.xmp == nil, "\(name)")
            }
            // strip_exif() in the URL leaves nothing, copyright included.
            let stripped = try H.image(
                try await client.execute(
                    uri: "/unsafe/120x80/filters:strip_exif()/\(h.url("/photo.jpg"))", method: .get))
            #expect(stripped.metadata.exif == nil)
        }
    }

    @Test func keepMetadataKeepsTheSourcesEXIFAndXMP() async throws {
        let h = try await ServeHarness()
        let source = try Self.source()
        try await h.withServer(H.configuration { $0.keepMetadata = true }) { _, client in
            let kept = try H.image(try await client.execute(uri: "/unsafe/120x80/\(h.url("/photo.jpg"))", method: .get))
            #expect(kept.metadata.exif == source.metadata.exif)
            let webp = try H.image(
                try await client.execute(
                    uri: "/unsafe/120x80/filters:format(webp)/\(h.url("/photo.jpg"))", method: .get))
            #expect(webp.metadata.exif == source.metadata.exif && webp.metadata.xmp == source.metadata.xmp)
            let stripped = try H.image(
                try await client.execute(
                    uri: "/unsafe/120x80/filters:strip_exif()/\(h.url("/photo.jpg"))", method: .get))
            #expect(stripped.metadata.exif == nil && stripped.metadata.xmp == nil)
            // strip_icc() leaves the profile out and nothing else.
            let bare = try H.image(
                try await client.execute(
                    uri: "/unsafe/120x80/filters:strip_icc()/\(h.url("/photo.jpg"))", method: .get))
            #expect(bare.metadata.iccProfile == nil && bare.metadata.exif == source.metadata.exif)
        }
    }

    /// The orientation is applied before the EXIF goes: a photo stored sideways (orientation 6) answers upright,
    /// with no EXIF left to turn it again.
    @Test func theOrientationIsAppliedBeforeStripping() async throws {
        let h = try await ServeHarness()
        let rotated = try Data(contentsOf: Fixtures.url("jpeg/right-orientation.jpg"))
        h.origin.route("/rotated.jpg") { _ in WITestServer.TestResponse(body: rotated, contentType: "image/jpeg") }
        try await h.withServer(H.configuration()) { _, client in
            for name in ["jpeg", "png", "webp"] {
                let response = try await client.execute(
                    uri: "/unsafe/filters:format(\(name))/\(h.url("/rotated.jpg"))", method: .get)
                let image = try H.image(response)
                #expect(image.size == PixelSize(width: 640, height: 480), "\(name)")
                #expect(image.metadata.exif == nil && image.orientation == .up, "\(name)")
            }
        }
    }
}

extension ServeMetadataTests {
    /// A photo whose orientation is in its XMP alone (SDWebImage's TestJFIF.jpg layout, jpeg-orientation/
    /// xmp-only-3.jpg): answered upright, and the XMP packet goes with the EXIF by default. Kept
    /// (`--keep-metadata`, WebP: the encoder that writes XMP), its tiff:Orientation says 1, so that no reader of the
    /// XMP (Pillow's getexif, Apple's ImageIO) turns the upright pixels again.
    @Test func anXMPOrientationIsAppliedAndThePacketStripped() async throws {
        let h = try await ServeHarness()
        let source = Fixtures.data("jpeg-orientation/xmp-only-3.jpg")
        h.origin.route("/xmp.jpg") { _ in WITestServer.TestResponse(body: source, contentType: "image/jpeg") }
        let upright = try H.coders.decode(source, options: DecodeOptions())
        #expect(upright.orientation == .up && upright.metadata.xmp != nil)
        try await h.withServer(H.configuration()) { _, client in
            for name in ["jpeg", "png", "webp"] {
                let response = try await client.execute(
                    uri: "/unsafe/filters:format(\(name))/\(h.url("/xmp.jpg"))",
                    method: .get)
                #expect(response.status == .ok)
                #expect(H.data(response).range(of: Data("http://ns.adobe.com/xap".utf8)) == nil, "\(name)")
                let image = try H.image(response)
                #expect(image.metadata.xmp == nil && image.metadata.exif == nil, "\(name)")
                #expect(image.size == PixelSize(width: 225, height: 150), "\(name)")
                if name == "png" { #expect(image.pixels == upright.pixels) }
            }
        }
        let kept = try await ServeHarness()  // a harness serves one server
        kept.origin.route("/xmp.jpg") { _ in WITestServer.TestResponse(body: source, contentType: "image/jpeg") }
        try await kept.withServer(H.configuration { $0.keepMetadata = true }) { _, client in
            let response = try await client.execute(
                uri: "/unsafe/filters:format(webp)/\(kept.url("/xmp.jpg"))",
                method: .get)
            #expect(response.status == .ok)
            let webp = try H.image(response)
            let xmp = try #require(webp.metadata.xmp)
            #expect(ImageCoding.XMPReader.orientation(in: xmp) == .up)
            #expect(xmp.count == upright.metadata.xmp?.count)
        }
    }
}

@Suite struct MetadataPrivacyTests {
    @Test func copyrightBlockHoldsExactlyTheTwoFields() throws {
        let exif = try #require(try ServeMetadataTests.source().metadata.exif)
        let kept = try #require(ImageMetadata(exif: exif).removingPersonalData(keepingCopyright: true).exif)
        // "MM", 42, IFD0 at 8; two ASCII entries (15 bytes each, "Nicolas Cornet\0") stored after the IFD at 38
        // and 54 (padded to even); no next IFD.
        var expected: [UInt8] = [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x02,
            0x01, 0x3B, 0x00, 0x02, 0x00, 0x00, 0x00, 0x0F, 0x00, 0x00, 0x00, 0x26,
            0x82, 0x98, 0x00, 0x02, 0x00, 0x00, 0x00, 0x0F, 0x00, 0x00, 0x00, 0x36,
            0x00, 0x00, 0x00, 0x00,
        ]
        expected += Array("Nicolas Cornet\0".utf8) + [0] + Array("Nicolas Cornet\0".utf8) + [0]
        #expect([UInt8](kept) == expected)
        #expect(ImageMetadata(exif: exif).removingPersonalData().exif == nil)
    }

    @Test func shortAndMissingFields() {
        // Little-endian, Artist "Al" inline (3 bytes with its NUL), no Copyright.
        let exif = Data([
            0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00,
            0x3B, 0x01, 0x02, 0x00, 0x03, 0x00, 0x00, 0x00, 0x41, 0x6C, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00,
        ])
        let kept = ImageMetadata(exif: exif).removingPersonalData(keepingCopyright: true).exif
        #expect(
            kept.map([UInt8].init) == [
                0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01,
                0x01, 0x3B, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03, 0x41, 0x6C, 0x00, 0x00,
                0x00, 0x00, 0x00, 0x00,
            ])
        // No field to keep, a truncated block, a wrong type: nothing kept.
        #expect(ImageMetadata(exif: Data(exif.prefix(20))).removingPersonalData(keepingCopyright: true).exif == nil)
        var numeric = exif
        numeric[12] = 3
        #expect(ImageMetadata(exif: numeric).removingPersonalData(keepingCopyright: true).exif == nil)
        #expect(ImageMetadata(exif: Data("junk".utf8)).removingPersonalData(keepingCopyright: true).exif == nil)
    }
}

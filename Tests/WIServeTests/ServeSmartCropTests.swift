import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WebImage
import WITestServer
@testable import WIServe
@testable import WIServeCore

/// `smart/`: the window is chosen by content (WITransform's attention crop), not by the alignment.
@Suite(.serialized) struct ServeSmartCropTests {
    typealias H = ServeHarness

    /// 400x200 flat grey with a red and white checkerboard patch at x 320..<380, y 70..<130.
    static func patchImage() throws -> Image {
        var bytes = [UInt8]()
        bytes.reserveCapacity(400 * 200 * 4)
        for y in 0..<200 {
            for x in 0..<400 {
                let inPatch = (320..<380).contains(x) && (70..<130).contains(y)
                let white = ((x / 6) + (y / 6)) % 2 == 0
                bytes += inPatch ? (white ? [255, 255, 255, 255] : [230, 0, 0, 255]) : [128, 128, 128, 255]
            }
        }
        return Image(pixels: try PixelBuffer(width: 400, height: 200, format: .rgba8, bytes: bytes), format: .png)
    }

    @Test func smartCropFollowsTheContentAndMatchesTheLibrary() async throws {
        let h = try await ServeHarness()
        let source = try Self.patchImage()
        let png = try H.coders.encode(source, as: .png, options: EncodeOptions())
        h.origin.route("/patch.png") { _ in TestResponse(body: png, contentType: "image/png") }
        try await h.withServer(H.configuration()) { _, client in
            let smart = try H.image(
                try await client.execute(uri: "/unsafe/100x100/smart/\(h.url("/patch.png"))", method: .get))
            let centred = try H.image(
                try await client.execute(uri: "/unsafe/100x100/\(h.url("/patch.png"))", method: .get))
            #expect(smart.size == PixelSize(width: 100, height: 100))
            let expected = try AttentionCropTransformer(width: 100, height: 100).transform(
                try H.coders.decode(png, options: DecodeOptions()))
            #expect(smart.pixels == expected.pixels)
            // The centre crop (x 50..<150 of the 200x100 scaled image) misses the patch; the smart one holds it.
            let grey = RGBAColor(red: 128, green: 128, blue: 128)
            #expect((0..<100).allSatisfy { centred.pixels.color(x: $0, y: 50) == grey })
            #expect(
                (0..<100).contains {
                    smart.pixels.color(x: $0, y: 50).red > 200 && smart.pixels.color(x: $0, y: 50).green < 60
                })
        }
    }
}

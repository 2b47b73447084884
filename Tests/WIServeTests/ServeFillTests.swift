import Foundation
import Testing
import WebImage
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// `fill(auto)` and `fill(blur)` against thumbor 7.8's answers on a 40x20 pattern fitted into 60x60
/// (Tests/Fixtures/serve-fill/make_reference.py, a real thumbor server).
@Suite struct ServeFillTests {
    static func decode(_ name: String) throws -> PixelBuffer {
        try PNGCoder().decode(Fixtures.data("serve-fill/\(name)"), options: DecodeOptions()).pixels
            .converted(to: .rgba8)
    }

    static func answer(_ filters: String) throws -> PixelBuffer {
        let request = try ThumborRequest.parse(path: "/unsafe/fit-in/60x60/filters:\(filters)/example.com/a.png")
        let source = Image(pixels: try decode("source.png"))
        return try ThumborTransformer(request: request, pixelLimit: 50_000_000).transform(source).pixels
            .converted(to: .rgba8)
    }

    /// Every pixel equal: the box is the source's mean colour, (127, 126, 95) as thumbor's `_fill` computes it.
    @Test func autoFillsWithTheMeanColourAsThumborDoes() throws {
        let ours = try Self.answer("fill(auto)")
        let thumbor = try Self.decode("fill-auto.png")
        #expect(ours.size == PixelSize(width: 60, height: 60))
        #expect(ours.color(x: 0, y: 0) == RGBAColor(red: 127, green: 126, blue: 95))
        #expect(ours.packedBytes() == thumbor.packedBytes())
        let meanOfOne = try ThumborFilters.Fill.meanColor(
            of: Image(pixels: PixelBuffer(width: 1, height: 1, format: .rgba8, bytes: [9, 8, 7, 255])))
        #expect(meanOfOne == RGBAColor(red: 9, green: 8, blue: 7))
    }

    /// The image itself sits in the middle unchanged; around it, the blurred and stretched copy is close to
    /// thumbor's: 51.2 dB measured (the blur is thumbor's byte for byte, the stretch our resampler where thumbor's
    /// is Lanczos).
    @Test func blurFillsWithTheBlurredImageStretched() throws {
        let ours = try Self.answer("fill(blur)")
        let thumbor = try Self.decode("fill-blur.png")
        #expect(ours.size == PixelSize(width: 60, height: 60))
        let source = try Self.decode("source.png")
        for (x, y) in [(10, 20), (49, 39), (30, 30)] {
            #expect(ours.color(x: x, y: y) == source.color(x: x - 10, y: y - 20))
            #expect(ours.color(x: x, y: y) == thumbor.color(x: x, y: y))
        }
        let psnr = try #require(ours.psnr(against: thumbor))
        #expect(psnr >= 48, "fill(blur): \(psnr) dB against thumbor's")
        let parsed = try ThumborFilters.parseList("fill(blur):fill(auto):fill(red)", strict: true)
        #expect(parsed.map(\.description).prefix(2) == ["fill(blur)", "fill(auto)"])
        #expect(parsed.last as? ThumborFilters.Fill == ThumborFilters.Fill(RGBAColor(red: 255, green: 0, blue: 0)))
    }
}

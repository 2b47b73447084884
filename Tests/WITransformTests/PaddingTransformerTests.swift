import Testing
import WICore
import WITestSupport
@testable import WITransform

/// `PaddingTransformer`: the border's widths and colour, the frame's place, and both blendings on known pixels
/// (thumbor's `_composite` values computed with its double arithmetic; the serve test compares whole answers
/// with thumbor 7.8's `frame()`).
@Suite struct PaddingTransformerTests {
    /// 2x2: half-transparent red, opaque blue / fully transparent green, (100, 50, 25) at alpha 64.
    static func quad() throws -> Image {
        try ThumborReference.image(2, 2) { x, y in
            [[255, 0, 0, 128], [0, 0, 255, 255], [10, 200, 30, 0], [100, 50, 25, 64]][y * 2 + x]
        }
    }

    /// thumbor's `frame()` padding: opaque white, `_composite`. Each pixel: over = 255 - alpha; colour =
    /// trunc((1 - over / 255) x colour + 255 x over / 255), alpha 255.
    @Test func compositeOverWhiteAtTheLeftAndTopWidths() throws {
        let padding = try PaddingTransformer(
            left: 1, top: 0, right: 2, bottom: 1, color: .white, blending: .composite)
        let padded = try padding.transform(try Self.quad()).pixels
        #expect(padded.size == PixelSize(width: 5, height: 3))
        for (x, y) in [(0, 0), (0, 1), (3, 0), (4, 1), (0, 2), (2, 2), (4, 2)] {
            #expect(padded.color(x: x, y: y) == .white, "(\(x), \(y))")
        }
        #expect(padded.color(x: 1, y: 0) == RGBAColor(red: 255, green: 127, blue: 127))
        #expect(padded.color(x: 2, y: 0) == RGBAColor(red: 0, green: 0, blue: 255))
        #expect(padded.color(x: 1, y: 1) == .white)
        #expect(padded.color(x: 2, y: 1) == RGBAColor(red: 216, green: 203, blue: 197))
        #expect(padding.key == "Padding(1,0,2,1,#ffffffff,composite)")
    }

    /// Source-over on a transparent colour keeps the frame's own pixels; zero widths keep the size.
    @Test func sourceOverOnAColourAndZeroWidths() throws {
        let clear = try PaddingTransformer(left: 0, top: 2, right: 0, bottom: 0, color: .clear).transform(
            try Self.quad()
        ).pixels
        #expect(clear.size == PixelSize(width: 2, height: 4))
        #expect(clear.color(x: 0, y: 0) == .clear && clear.color(x: 1, y: 1) == .clear)
        #expect(clear.color(x: 0, y: 2) == RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(clear.color(x: 1, y: 3) == RGBAColor(red: 100, green: 50, blue: 25, alpha: 64))
        let same = try PaddingTransformer(left: 0, top: 0, right: 0, bottom: 0, color: .black).transform(
            try Self.quad()
        ).pixels
        #expect(same.size == PixelSize(width: 2, height: 2))
        // Half-transparent red over opaque black, rounded: 255 x 128 / 255 = 128, alpha 128 + 127 = 255.
        #expect(same.color(x: 0, y: 0) == RGBAColor(red: 128, green: 0, blue: 0))
        #expect(same.color(x: 0, y: 1) == .black)
    }

    @Test func refusesNegativeWidthsAndOversizedOutputs() throws {
        let negative = #expect(throws: ImageError.self) {
            try PaddingTransformer(left: -1, top: 0, right: 0, bottom: 0, color: .white)
        }
        #expect(negative?.code == .invalidArgument)
        let side = ImageCoding.Geometry.maximumSide
        let wide = try PaddingTransformer(left: side, top: 0, right: 0, bottom: 0, color: .white)
        let tooWide = #expect(throws: ImageError.self) { try wide.transform(try Self.quad()) }
        #expect(tooWide?.code == .invalidArgument)
        #expect(tooWide?.message == "padded width must be in 1...\(side), got \(side + 2)")
    }
}

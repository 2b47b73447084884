import Foundation
import Testing
import WICore
import WICoderSVG
import WITestSupport

/// `DecodeOptions.vectorViewport`: the document drawn into a box as cairosvg's `svg2png(output_width:,
/// output_height:)` draws it (thumbor's SVG path): letterboxed with transparent bars, placed as the document's
/// `preserveAspectRatio` says, one side 0 following the aspect.
@Suite struct SVGViewportTests {
    static let blue = RGBAColor(red: 0, green: 0, blue: 255, alpha: 255)
    static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

    static func decode(_ attributes: String, viewport: PixelSize, _ adjust: (inout DecodeOptions) -> Void = { _ in })
        throws -> Image
    {
        var options = DecodeOptions()
        options.vectorViewport = viewport
        adjust(&options)
        return try SVGCoder().decode(SVGDecodeTests.svg(attributes), options: options)
    }

    /// A 40x20 document in a 100x100 box: drawn 100x50 at rows 25..<75, the rows above and below transparent;
    /// with a viewBox of the same size (librsvg places it) and without one (placed here) alike.
    @Test(arguments: ["width='40' height='20'", "width='40' height='20' viewBox='0 0 40 20'", "viewBox='0 0 40 20'"])
    func bothSidesLetterboxTheDocument(attributes: String) throws {
        let image = try Self.decode(attributes, viewport: PixelSize(width: 100, height: 100))
        #expect(image.size == PixelSize(width: 100, height: 100))
        #expect(image.flags == [.vector, .thumbnail])
        for (x, y) in [(0, 0), (50, 10), (99, 24), (0, 75), (99, 99)] {
            #expect(image.pixels.color(x: x, y: y) == Self.clear, "\(attributes) (\(x), \(y))")
        }
        for (x, y) in [(0, 25), (50, 50), (99, 74)] {
            #expect(image.pixels.color(x: x, y: y) == Self.blue, "\(attributes) (\(x), \(y))")
        }
        // Across: a 40x20 document in 100x20 is drawn 40 wide at columns 30..<70.
        let wide = try Self.decode(attributes, viewport: PixelSize(width: 100, height: 20))
        #expect(wide.size == PixelSize(width: 100, height: 20))
        #expect(wide.pixels.color(x: 29, y: 10) == Self.clear && wide.pixels.color(x: 70, y: 10) == Self.clear)
        #expect(wide.pixels.color(x: 30, y: 10) == Self.blue && wide.pixels.color(x: 69, y: 10) == Self.blue)
    }

    @Test func theDocumentsPreserveAspectRatioPlacesIt() throws {
        let stretched = try Self.decode(
            "viewBox='0 0 40 20' preserveAspectRatio='none'", viewport: PixelSize(width: 100, height: 100))
        #expect(stretched.size == PixelSize(width: 100, height: 100) && stretched.pixels.isOpaque)
        let top = try Self.decode(
            "viewBox='0 0 40 20' preserveAspectRatio='xMinYMin'", viewport: PixelSize(width: 100, height: 100))
        #expect(top.pixels.color(x: 50, y: 0) == Self.blue && top.pixels.color(x: 50, y: 49) == Self.blue)
        #expect(top.pixels.color(x: 50, y: 50) == Self.clear && top.pixels.color(x: 50, y: 99) == Self.clear)
    }

    /// One side given: the other at the aspect, rounded half to even as cairosvg (Python's `round`) rounds it.
    @Test func oneSideFollowsTheAspect() throws {
        let across = try Self.decode("width='40' height='20'", viewport: PixelSize(width: 100, height: 0))
        #expect(across.size == PixelSize(width: 100, height: 50) && across.pixels.isOpaque)
        let down = try Self.decode("width='40' height='20'", viewport: PixelSize(width: 0, height: 30))
        #expect(down.size == PixelSize(width: 60, height: 30) && down.pixels.isOpaque)
        // 25 * 20 / 40 = 12.5 rounds to 12; 25 * 28 / 40 = 17.5 to 18.
        #expect(try Self.decode("width='40' height='25'", viewport: PixelSize(width: 20, height: 0)).size.height == 12)
        #expect(try Self.decode("width='40' height='25'", viewport: PixelSize(width: 28, height: 0)).size.height == 18)
    }

    @Test func theViewportWinsOverTheThumbnailBoxAndScale() throws {
        let image = try Self.decode("width='40' height='20'", viewport: PixelSize(width: 100, height: 100)) {
            $0.thumbnailPixelSize = PixelSize(width: 10, height: 10)
            $0.scaleFactor = 2
        }
        #expect(image.size == PixelSize(width: 100, height: 100))
        let natural = try Self.decode("width='40' height='20'", viewport: PixelSize(width: 0, height: 0))
        #expect(natural.size == PixelSize(width: 40, height: 20) && natural.flags == [.vector])
    }

    @Test func theByteLimitShrinksTheBoxAndItsDrawing() throws {
        let image = try Self.decode("width='40' height='20'", viewport: PixelSize(width: 100, height: 100)) {
            $0.scaleDownLimitBytes = 50 * 50 * 4
        }
        #expect(image.size == PixelSize(width: 50, height: 50))
        #expect(image.pixels.color(x: 25, y: 11) == Self.clear && image.pixels.color(x: 25, y: 38) == Self.clear)
        #expect(image.pixels.color(x: 25, y: 13) == Self.blue && image.pixels.color(x: 25, y: 36) == Self.blue)
    }

    @Test func theViewportIsCheckedAgainstThePixelLimit() throws {
        let error = #expect(throws: ImageError.self) {
            try Self.decode("width='40' height='20'", viewport: PixelSize(width: 1000, height: 0)) {
                $0.pixelLimit = 1000 * 499
            }
        }
        #expect(error?.code == .pixelLimitExceeded)
    }
}

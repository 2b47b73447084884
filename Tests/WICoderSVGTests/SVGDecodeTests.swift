import Foundation
import Testing
import WICore
import WICoderSVG
import WITestSupport

/// Sizing, alpha forms, flags and errors.
@Suite struct SVGDecodeTests {
    static func svg(_ attributes: String, _ body: String = "<rect width='100%' height='100%' fill='#00f'/>") -> Data {
        Data("<svg xmlns='http://www.w3.org/2000/svg' \(attributes)>\(body)</svg>".utf8)
    }

    @Test func intrinsicSizeTimesTheScaleFactor() throws {
        let data = Self.svg("width='64' height='48'")
        let image = try SVGCoder().decode(data, options: .init())
        #expect(image.size == PixelSize(width: 64, height: 48))
        #expect(image.format == .svg)
        #expect(image.flags == [.vector])
        #expect(image.pixels.color(x: 63, y: 47) == RGBAColor(red: 0, green: 0, blue: 255, alpha: 255))
        let doubled = try SVGCoder().decode(data, options: .init(scaleFactor: 2))
        #expect(doubled.size == PixelSize(width: 128, height: 96))
        #expect(doubled.scale == 2)
        #expect(doubled.flags == [.vector])
        // Fractional sizes round up; physical units are at 96 dpi.
        #expect(
            try SVGCoder().decode(Self.svg("width='10.2' height='3.5'"), options: .init()).size
                == PixelSize(width: 11, height: 4))
        #expect(
            try SVGCoder().decode(Self.svg("width='1in' height='72pt'"), options: .init()).size
                == PixelSize(width: 96, height: 96))
    }

    @Test func aMissingSideFollowsTheViewBox() throws {
        #expect(
            try SVGCoder().decode(Self.svg("width='50' viewBox='0 0 1 2'"), options: .init()).size
                == PixelSize(width: 50, height: 100))
        #expect(
            try SVGCoder().decode(Self.svg("height='50' viewBox='0 0 4 1'"), options: .init()).size
                == PixelSize(width: 200, height: 50))
        #expect(
            try SVGCoder().decode(Self.svg("width='30'"), options: .init()).size == PixelSize(width: 30, height: 30))
    }

    /// A document sized by its viewBox alone (or with percentages) is the viewBox's size, as rsvg-convert, libvips
    /// and CoreSVG size it; a fractional viewBox rounds up, a tiny one is at least 1x1.
    @Test func withoutASizeTheViewBoxsSizeApplies() throws {
        #expect(
            try SVGCoder().decode(Self.svg("viewBox='0 0 200 100'"), options: .init()).size
                == PixelSize(width: 200, height: 100))
        #expect(
            try SVGCoder().decode(Self.svg("viewBox='-5 -5 100 400'"), options: .init()).size
                == PixelSize(width: 100, height: 400))
        #expect(
            try SVGCoder().decode(Self.svg("width='100%' height='50%' viewBox='0 0 30 20'"), options: .init()).size
                == PixelSize(width: 30, height: 20))
        #expect(
            try SVGCoder().decode(Self.svg("viewBox='0 0 10.5 16.07'"), options: .init()).size
                == PixelSize(width: 11, height: 17))
        #expect(
            try SVGCoder().decode(Self.svg("viewBox='0 0 0.3 0.2'"), options: .init()).size
                == PixelSize(width: 1, height: 1))
        #expect(
            try SVGCoder(defaultLongSide: 100).decode(
                Self.svg("viewBox='0 0 200 100'"),
                options: .init(scaleFactor: 2)
            ).size
                == PixelSize(width: 400, height: 200))
    }

    /// With no width, height or viewBox the document has no size of its own: a `defaultLongSide` square.
    @Test func withNeitherTheDefaultSquareApplies() throws {
        #expect(try SVGCoder().decode(Self.svg(""), options: .init()).size == PixelSize(width: 512, height: 512))
        #expect(
            try SVGCoder().decode(Self.svg("width='100%' height='50%'"), options: .init()).size
                == PixelSize(width: 512, height: 512))
        #expect(
            try SVGCoder(defaultLongSide: 100).decode(Self.svg(""), options: .init(scaleFactor: 2)).size
                == PixelSize(width: 200, height: 200))
    }

    /// A fractional size is drawn at its own scale into the canvas rounded up, not stretched to fill it: a
    /// 10.5x16.25 blue rect covers columns 0-9 and rows 0-15 wholly, half of column 10 and a quarter of row 16.
    @Test func aFractionalSizeIsDrawnAtItsNaturalScale() throws {
        let data = Self.svg("width='10.5' height='16.25'", "<rect width='10.5' height='16.25' fill='#00f'/>")
        for options in [DecodeOptions(), DecodeOptions(scaleFactor: 2)] {
            let image = try SVGCoder().decode(data, options: options)
            let s = options.scaleFactor
            #expect(image.size == PixelSize(width: Int((10.5 * s).rounded(.up)), height: Int((16.25 * s).rounded(.up))))
            let last = (x: image.size.width - 1, y: image.size.height - 1)
            #expect(image.pixels.color(x: last.x - 1, y: last.y - 1).alpha == 255)
            if s == 1 {
                #expect(image.pixels.color(x: 10, y: 0).alpha == 128)
                #expect(image.pixels.color(x: 0, y: 16).alpha == 64)
                #expect(image.pixels.color(x: 10, y: 16).alpha == 32)
            } else {
                #expect(image.pixels.color(x: 20, y: 0).alpha == 255)  // 21 x 32.5: whole column, half row
                #expect(image.pixels.color(x: 0, y: 32).alpha == 128)
            }
        }
    }

    @Test func aThumbnailBoxIsFilledUpOrDown() throws {
        let data = Self.svg("width='40' height='20'")
        let up = try SVGCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 100, height: 100)))
        #expect(up.size == PixelSize(width: 100, height: 50))
        #expect(up.flags == [.vector, .thumbnail])
        let down = try SVGCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 10, height: 10)))
        #expect(down.size == PixelSize(width: 10, height: 5))
        let heightOnly = try SVGCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 0, height: 30)))
        #expect(heightOnly.size == PixelSize(width: 60, height: 30))
        let stretched = try SVGCoder().decode(
            data,
            options: .init(
                thumbnailPixelSize: .init(width: 30, height: 30),
                preserveAspectRatio: false))
        #expect(stretched.size == PixelSize(width: 30, height: 30))
        #expect(stretched.pixels.isOpaque)  // the rect fills the stretched canvas
    }

    @Test func theByteLimitCapsTheSize() throws {
        let image = try SVGCoder().decode(
            Self.svg("width='400' height='200'"),
            options: .init(scaleDownLimitBytes: 100 * 50 * 4))
        #expect(image.size == PixelSize(width: 100, height: 50))
        #expect(image.flags == [.vector, .thumbnail])
    }

    /// cairo hands premultiplied pixels: rgb(100, 150, 200) at opacity 0.3 is stored as alpha 77 and colour
    /// round(c * 77 / 255) = (30, 45, 60); straight output undoes that with rounding, round(c * 255 / 77) =
    /// (99, 149, 199) (truncation would give (99, 149, 198)); premultiplied output keeps cairo's bytes.
    @Test func halfTransparentPixelsUnpremultiplyWithRounding() throws {
        let data = Self.svg(
            "width='4' height='4'",
            "<rect width='4' height='2' fill='rgb(100,150,200)' fill-opacity='0.3'/>")
        let straight = try SVGCoder().decode(data, options: .init())
        let premultiplied = try SVGCoder().decode(data, options: .init(premultipliedAlpha: true))
        #expect(straight.pixels.format == .rgba8)
        #expect(premultiplied.pixels.format == .premultipliedRGBA8)
        let p = premultiplied.pixels.packedBytes()
        let s = straight.pixels.packedBytes()
        #expect(Array(p[0..<4]) == [30, 45, 60, 77])
        #expect(Array(s[0..<4]) == [99, 149, 199, 77])
        #expect(Array(s[32..<36]) == [0, 0, 0, 0])  // below the rect: transparent
        for i in stride(from: 0, to: p.count, by: 4) where p[i + 3] > 0 {
            for c in 0..<3 {
                #expect(Int(s[i + c]) == (Int(p[i + c]) * 255 + Int(p[i + 3]) / 2) / Int(p[i + 3]))
            }
        }
        #expect(straight.hasAlpha)
    }

    @Test func documentsOverTheByteLimitAreRefusedUnparsed() {
        let data = Self.svg("width='4' height='4'")
        let error = #expect(throws: ImageError.self) {
            try SVGCoder(maxDocumentBytes: data.count - 1).decode(data, options: .init())
        }
        #expect(error?.code == .documentTooLarge)
        #expect(error?.code.rawValue == 1030)
        #expect(throws: Never.self) { try SVGCoder(maxDocumentBytes: data.count).decode(data, options: .init()) }
    }

    /// weserv's giant.svg asks for 10,000,000 x 10,000,000 pixels: refused from its header, before any canvas.
    @Test func thePixelLimitIsCheckedBeforeAllocating() throws {
        let data = Fixtures.data("svg/peers/weserv-giant.svg")
        let error = #expect(throws: ImageError.self) { try SVGCoder().decode(data, options: .init()) }
        #expect(error?.code == .pixelLimitExceeded)
        #expect(error?.message == "10000000x10000000 x 1 frame(s) exceeds the pixel limit of 268435456 pixels")
        // A thumbnail of it is fine (the path fills the viewBox: all black).
        let thumbnail = try SVGCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 16, height: 16)))
        #expect(thumbnail.size == PixelSize(width: 16, height: 16))
        #expect(thumbnail.pixels.color(x: 8, y: 8) == RGBAColor(red: 0, green: 0, blue: 0, alpha: 255))
        let small = #expect(throws: ImageError.self) {
            try SVGCoder().decode(Self.svg("width='200' height='200'"), options: .init(pixelLimit: 39_999))
        }
        #expect(small?.code == .pixelLimitExceeded)
    }

    @Test func librsvgErrorsBecomeBadImageData() {
        for text in [
            "<svg xmlns='http://www.w3.org/2000/svg'><rect", "<svg></notsvg>",
            "<svg xmlns='http://www.w3.org/2000/svg'><g></svg>",
        ] {
            let error = #expect(throws: ImageError.self) { try SVGCoder().decode(Data(text.utf8), options: .init()) }
            #expect(error?.code == .badImageData, "\(text)")
            #expect(error?.message.hasPrefix("librsvg parse: ") == true, "\(String(describing: error))")
        }
        let empty = #expect(throws: ImageError.self) { try SVGCoder().decode(Data(), options: .init()) }
        #expect(empty?.code == .badImageData)
    }

    @Test func sniffsTheRootElementNotTheExtension() {
        #expect(SVGCoder().canDecode(Fixtures.data("formats/sample.svg")))
        #expect(SVGCoder().canDecode(Fixtures.data("svg/peers/thumbor-Commons-logo-inches.svg")))
        #expect(!SVGCoder().canDecode(Fixtures.data("formats/sample.pdf")))
        #expect(!SVGCoder().canDecode(Data("<html><body><svg></svg></body></html>".utf8)))
        #expect(SVGCoder().decodingFormats == [.svg])
    }
}

extension SVGDecodeTests {
    /// `dpi` sizes lengths in physical units (a 1in x 0.5in document: 96x48 at the default, 150x75 at thumbor's
    /// SVG_DPI, as cairosvg renders it) and leaves CSS pixels alone; an unusable dpi is the default.
    @Test func dpiSizesPhysicalUnitsOnly() throws {
        let inches = Data(
            #"<svg xmlns="http://www.w3.org/2000/svg" width="1in" height="0.5in" viewBox="0 0 120 60"><rect width="120" height="60" fill="red"/></svg>"#
                .utf8)
        let pixels = Data(
            #"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><rect width="120" height="60"/></svg>"#
                .utf8)
        func size(_ data: Data, _ coder: SVGCoder) throws -> PixelSize {
            try coder.decode(data, options: DecodeOptions()).size
        }
        #expect(try size(inches, SVGCoder()) == PixelSize(width: 96, height: 48))
        #expect(try size(inches, SVGCoder(dpi: 150)) == PixelSize(width: 150, height: 75))
        #expect(try size(inches, SVGCoder(dpi: 72)) == PixelSize(width: 72, height: 36))
        #expect(try size(pixels, SVGCoder(dpi: 150)) == PixelSize(width: 120, height: 60))
        #expect(SVGCoder(dpi: .nan).dpi == 96 && SVGCoder(dpi: 0).dpi == 96)
        let red = try SVGCoder(dpi: 150).decode(inches, options: DecodeOptions()).pixels.color(x: 149, y: 74)
        #expect(red == RGBAColor(red: 255, green: 0, blue: 0))
    }
}

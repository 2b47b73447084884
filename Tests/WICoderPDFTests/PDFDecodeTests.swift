import Foundation
import Testing
import WICore
import WICoderPDF
import WITestSupport

/// Rendering the hand-made PDFs of Tests/Fixtures/make-pdf-fixtures.py, whose content is known to the pixel.
@Suite struct PDFDecodeTests {
    static let red = RGBAColor(red: 255, green: 0, blue: 0, alpha: 255)
    static let white = RGBAColor(red: 255, green: 255, blue: 255, alpha: 255)

    /// The pixels of `pixels` inside `rect` (x, y, width, height) that are `inside`, and all others `outside`:
    /// returns the number of pixels that are neither.
    static func mismatches(
        _ pixels: PixelBuffer, rect: (Int, Int, Int, Int), inside: RGBAColor,
        outside: RGBAColor = white
    ) -> Int {
        var count = 0
        for y in 0..<pixels.height {
            for x in 0..<pixels.width {
                let within = x >= rect.0 && x < rect.0 + rect.2 && y >= rect.1 && y < rect.1 + rect.3
                if pixels.color(x: x, y: y) != (within ? inside : outside) { count += 1 }
            }
        }
        return count
    }

    @Test func rendersThePageAt72DpiOnWhitePaperExactly() throws {
        let image = try PDFCoder().decode(Fixtures.data("pdf/square.pdf"), options: .init())
        #expect(image.size == PixelSize(width: 200, height: 100))
        #expect(image.format == .pdf)
        #expect(image.flags == [.vector])
        #expect(image.pixels.format == .rgba8)
        #expect(!image.hasAlpha)
        #expect(Self.mismatches(image.pixels, rect: (20, 20, 40, 50), inside: Self.red) == 0)
    }

    @Test func scaleFactorMultipliesThePageSize() throws {
        let image = try PDFCoder().decode(Fixtures.data("pdf/square.pdf"), options: .init(scaleFactor: 2))
        #expect(image.size == PixelSize(width: 400, height: 200))
        #expect(image.scale == 2)
        #expect(Self.mismatches(image.pixels, rect: (40, 40, 80, 100), inside: Self.red) == 0)
    }

    @Test func aThumbnailBoxIsFilledWithTheAspectKept() throws {
        // Up: 200x100 pt into 400x400 gives 400x200; down: into 50x50 gives 50x25.
        let up = try PDFCoder().decode(
            Fixtures.data("pdf/square.pdf"),
            options: .init(thumbnailPixelSize: .init(width: 400, height: 400)))
        #expect(up.size == PixelSize(width: 400, height: 200))
        #expect(up.flags == [.vector, .thumbnail])
        #expect(Self.mismatches(up.pixels, rect: (40, 40, 80, 100), inside: Self.red) == 0)
        let down = try PDFCoder().decode(
            Fixtures.data("pdf/square.pdf"),
            options: .init(thumbnailPixelSize: .init(width: 50, height: 50)))
        #expect(down.size == PixelSize(width: 50, height: 25))
        #expect(Self.mismatches(down.pixels, rect: (5, 5, 10, 12), inside: Self.red) <= 2 * (10 + 12) + 4)
        #expect(down.pixels.color(x: 10, y: 10) == Self.red)
        #expect(down.pixels.color(x: 30, y: 10) == Self.white)
    }

    @Test func withoutAspectTheBoxIsFilledExactly() throws {
        let image = try PDFCoder().decode(
            Fixtures.data("pdf/square.pdf"),
            options: .init(
                thumbnailPixelSize: .init(width: 100, height: 100),
                preserveAspectRatio: false))
        #expect(image.size == PixelSize(width: 100, height: 100))
        #expect(Self.mismatches(image.pixels, rect: (10, 20, 20, 50), inside: Self.red) == 0)
    }

    @Test func theByteLimitWins() throws {
        let image = try PDFCoder().decode(
            Fixtures.data("pdf/square.pdf"),
            options: .init(
                thumbnailPixelSize: .init(width: 400, height: 400),
                scaleDownLimitBytes: 100 * 50 * 4))
        #expect(image.size == PixelSize(width: 100, height: 50))
        #expect(image.flags.contains(.thumbnail))
    }

    @Test func premultipliedOutputOfAnOpaquePageIsTheSamePixels() throws {
        let straight = try PDFCoder().decode(Fixtures.data("pdf/square.pdf"), options: .init())
        let premultiplied = try PDFCoder().decode(
            Fixtures.data("pdf/square.pdf"),
            options: .init(premultipliedAlpha: true))
        #expect(premultiplied.pixels.format == .premultipliedRGBA8)
        #expect(premultiplied.pixels.packedBytes() == straight.pixels.packedBytes())
    }

    @Test(arguments: [
        (0, RGBAColor(red: 255, green: 0, blue: 0, alpha: 255)),
        (1, RGBAColor(red: 0, green: 255, blue: 0, alpha: 255)),
        (2, RGBAColor(red: 0, green: 0, blue: 255, alpha: 255)),
    ])
    func rendersThePageAskedFor(page: Int, color: RGBAColor) throws {
        let image = try PDFCoder(page: page).decode(Fixtures.data("pdf/three-pages.pdf"), options: .init())
        #expect(image.size == PixelSize(width: 60, height: 40))
        #expect(Self.mismatches(image.pixels, rect: (10, 20, 10, 10), inside: color) == 0)
    }

    @Test func aPageBeyondTheLastIsATypedError() {
        let error = #expect(throws: ImageError.self) {
            try PDFCoder(page: 3).decode(Fixtures.data("pdf/three-pages.pdf"), options: .init())
        }
        #expect(error?.code == .badImageData)
        #expect(error?.message == "the PDF has no page 4 (it has 3)")
    }

    @Test func thePageRotationIsApplied() throws {
        let image = try PDFCoder().decode(Fixtures.data("pdf/rotated.pdf"), options: .init())
        #expect(image.size == PixelSize(width: 100, height: 200))
        #expect(Self.mismatches(image.pixels, rect: (30, 20, 50, 40), inside: Self.red) == 0)
    }

    @Test func anEncryptedDocumentNeedsItsPassword() throws {
        let data = Fixtures.data("pdf/encrypted.pdf")
        for coder in [PDFCoder(), PDFCoder(password: "wrong")] {
            let error = #expect(throws: ImageError.self) { try coder.decode(data, options: .init()) }
            #expect(error?.code == .passwordRequired)
            #expect(error?.code.rawValue == 1031)
        }
        for password in ["user", "owner"] {
            let image = try PDFCoder(password: password).decode(data, options: .init())
            #expect(Self.mismatches(image.pixels, rect: (20, 20, 40, 50), inside: Self.red) == 0)
        }
    }

    @Test func thePixelLimitIsCheckedBeforeRendering() {
        let error = #expect(throws: ImageError.self) {
            try PDFCoder().decode(
                Fixtures.data("pdf/square.pdf"), options: .init(scaleFactor: 10, pixelLimit: 1_999_999))
        }
        #expect(error?.code == .pixelLimitExceeded)
        #expect(error?.message == "2000x1000 x 1 frame(s) exceeds the pixel limit of 1999999 pixels")
    }

    @Test func sniffsByTheHeaderOnly() {
        #expect(PDFCoder().canDecode(Fixtures.data("pdf/square.pdf")))
        #expect(PDFCoder().canDecode(Fixtures.data("formats/sample.pdf")))
        #expect(!PDFCoder().canDecode(Fixtures.data("formats/sample.svg")))
        #expect(!PDFCoder().canDecode(Data("%PDF".utf8)))
        #expect(PDFCoder().decodingFormats == [.pdf])
        let error = #expect(throws: ImageError.self) {
            try PDFCoder().decode(Fixtures.data("formats/sample.png"), options: .init())
        }
        #expect(error?.code == .unsupportedFormat)
    }

    @Test func garbageAfterTheHeaderIsBadImageDataWithPopplersMessage() {
        let error = #expect(throws: ImageError.self) {
            try PDFCoder().decode(Data("%PDF-1.4\nnot a pdf at all".utf8), options: .init())
        }
        #expect(error?.code == .badImageData)
        #expect(error?.message.hasPrefix("poppler open: ") == true)
    }
}

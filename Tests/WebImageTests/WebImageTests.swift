import Testing
import WebImage
import WITestSupport

@Suite struct WebImageTests {
    @Test func readyMadeCodersDecodeEveryShippedFormat() throws {
        let coders = WebImage.makeCoders()
        #expect(coders.decodingFormats == [.pdf, .svg, .heic, .heif, .avif, .webp, .jpeg, .png, .gif])
        let image = try coders.decode(Fixtures.data("formats/sample.png"), options: .init())
        #expect(image.format == .png)
        #expect(coders.canEncode(to: .png))
        let jpeg = try coders.decode(Fixtures.data("formats/sample.jpg"), options: .init())
        #expect(jpeg.format == .jpeg)
        #expect(coders.canEncode(to: .jpeg))
        #expect(try coders.decode(Fixtures.data("formats/sample-heix.heic"), options: .init()).format == .heic)
        #expect(coders.canEncode(to: .heic) && coders.canEncode(to: .avif))
        let webp = try coders.decode(Fixtures.data("formats/sample.webp"), options: .init())
        #expect(webp.format == .webp)
        #expect(coders.canEncode(to: .webp))
        let gif = try coders.decode(Fixtures.data("formats/sample.gif"), options: .init())
        #expect(gif.format == .gif && gif.frames.count == 5)
        #expect(coders.canEncode(to: .gif))
        #expect(try coders.makeAnimatedDecoder(Fixtures.data("formats/sample.gif"), options: .init()).frameCount == 5)
        let svg = try coders.decode(Fixtures.data("formats/sample.svg"), options: .init())
        #expect(svg.format == .svg && svg.size == PixelSize(width: 64, height: 48) && svg.flags.contains(.vector))
        let pdf = try coders.decode(Fixtures.data("formats/sample.pdf"), options: .init())
        #expect(pdf.format == .pdf && pdf.flags.contains(.vector))
    }

    @Test func aProfileLibpngRejectsDoesNotFailAPNGEncode() throws {
        // sample.heic carries an sRGB profile libpng calls "known incorrect"; found by `make demo`.
        let coders = WebImage.makeCoders()
        let image = try coders.decode(Fixtures.data("formats/sample.heic"),
                                      options: .init(thumbnailPixelSize: .init(width: 64, height: 64)))
        #expect(image.metadata.iccProfile != nil)
        let png = try coders.encode(image, as: .png, options: .init())
        #expect(try coders.decode(png, options: .init()).size == image.size)
    }
}

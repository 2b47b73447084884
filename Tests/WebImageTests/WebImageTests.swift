import Testing
import WebImage
import WITestSupport

@Suite struct WebImageTests {
    @Test func readyMadeCodersDecodeEveryShippedFormat() throws {
        let coders = WebImage.makeCoders()
        #expect(coders.decodingFormats == [.heic, .heif, .avif, .webp, .jpeg, .png, .gif, .tiff])
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
        let tiff = try coders.decode(Fixtures.data("formats/sample.tiff"), options: .init())
        #expect(tiff.format == .tiff)
        #expect(coders.canEncode(to: .tiff))
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

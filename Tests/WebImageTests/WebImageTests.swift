import Foundation
import Testing
import WebImage
import WITestServer
import WITestSupport

@Suite struct WebImageTests {
    @Test func readyMadeCodersDecodeEveryShippedFormat() throws {
        let coders = WebImage.makeCoders()
        #expect(
            coders.decodingFormats == [
                .tiff, .jxl, .pdf, .svg, .heic, .heif, .avif, .webp, .jpeg, .png, .gif, .bmp, .ico, .cur,
            ])
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
        #expect(gif.format == .gif && gif.frameCount == 5)
        #expect(coders.canEncode(to: .gif))
        #expect(try coders.makeAnimatedDecoder(Fixtures.data("formats/sample.gif"), options: .init()).frameCount == 5)
        let svg = try coders.decode(Fixtures.data("formats/sample.svg"), options: .init())
        #expect(svg.format == .svg && svg.size == PixelSize(width: 64, height: 48) && svg.flags.contains(.vector))
        let pdf = try coders.decode(Fixtures.data("formats/sample.pdf"), options: .init())
        #expect(pdf.format == .pdf && pdf.flags.contains(.vector))
        #expect(try coders.decode(Fixtures.data("formats/sample.bmp"), options: .init()).format == .bmp)
        // An icon whose 256x256 entry is a PNG: the BMP coder hands it to the PNG coder.
        let icon = try coders.decode(Fixtures.data("bmp/peer-coil_logo_black.ico"), options: .init())
        #expect(icon.format == .ico && icon.size == PixelSize(width: 256, height: 256))
        #expect(coders.canEncode(to: .bmp) && coders.canEncode(to: .ico))
        let tiff = try coders.decode(Fixtures.data("formats/sample.tiff"), options: .init())
        #expect(tiff.format == .tiff)
        #expect(coders.canEncode(to: .tiff))
    }

    /// The ready-made manager's loader lists every decodable image format in its Accept header (asked for with
    /// the first request, so that a process served from its caches never loads libheif to answer).
    @Test func readyMadeManagerAcceptsEveryDecodableFormat() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a.png") { _ in TestResponse(body: Fixtures.data("formats/sample.png"), contentType: "image/png")
        }
        let manager = try WebImage.makeManager(useDiskCache: false)
        _ = try await manager.loadImage(with: server.url("/a.png"))
        await manager.shutdown()
        #expect(
            server.requests("/a.png").first?.headers["accept"] == "image/tiff,image/jxl,image/svg+xml,image/heic,"
                + "image/heif,image/avif,image/webp,image/jpeg,image/png,image/gif,image/bmp,image/x-icon,image/x-win-bitmap,"
                + "image/*,*/*;q=0.8")
    }

    @Test func aProfileLibpngRejectsDoesNotFailAPNGEncode() throws {
        // sample.heic carries an sRGB profile libpng calls "known incorrect"; found by `make demo`.
        let coders = WebImage.makeCoders()
        let image = try coders.decode(
            Fixtures.data("formats/sample.heic"),
            options: .init(thumbnailPixelSize: .init(width: 64, height: 64)))
        #expect(image.metadata.iccProfile != nil)
        let png = try coders.encode(image, as: .png, options: .init())
        #expect(try coders.decode(png, options: .init()).size == image.size)
    }

    /// sample.png (300x300) decoded to a 70x70 thumbnail (a factor of 4.29: pixman and the area average differ).
    private static let box = DecodeOptions(thumbnailPixelSize: PixelSize(width: 70, height: 70))

    @Test func aCodersManagerWithPixmanMakesPixmanThumbnails() throws {
        let data = Fixtures.data("formats/sample.png")
        let full = try PNGCoder().decode(data, options: .init()).pixels
        let size = PixelSize(width: 70, height: 70)
        let pixman = try PixmanResampler().resample(full, to: size)
        let areaAverage = try ImageCoding.AreaAverageResampler().resample(full, to: size)
        #expect(pixman != areaAverage)
        let withPixman = try ImageCodersManager(coders: [PNGCoder()], resampler: PixmanResampler()).decode(
            data, options: Self.box)
        #expect(withPixman.pixels == pixman)
        #expect(withPixman.decodeOptions == Self.box)
        #expect(try ImageCodersManager(coders: [PNGCoder()]).decode(data, options: Self.box).pixels == areaAverage)
        #expect(try PNGCoder().decode(data, options: Self.box).pixels == areaAverage)
        // The options' own resampler wins over the manager's.
        var own = Self.box
        own.resampler = ImageCoding.AreaAverageResampler()
        #expect(try WebImage.makeCoders().decode(data, options: own).pixels == areaAverage)
        // Encoding's size limit too: a 70x70 PNG of pixman's pixels, lossless.
        let encoded = try WebImage.makeCoders().encode(
            Image(pixels: full), as: .png,
            options: .init(maxPixelSize: size))
        #expect(try PNGCoder().decode(encoded, options: .init()).pixels == pixman)
        let plainEncoded = try ImageCodersManager(coders: [PNGCoder()]).encode(
            Image(pixels: full), as: .png,
            options: .init(maxPixelSize: size))
        #expect(try PNGCoder().decode(plainEncoded, options: .init()).pixels == areaAverage)
    }

    @Test func makeCodersHasNoSideEffect() throws {
        let data = Fixtures.data("formats/sample.png")
        let plain = ImageCodersManager(coders: [PNGCoder()])
        let before = try plain.decode(data, options: Self.box).pixels
        let ready = WebImage.makeCoders()
        #expect(ready.resampler is PixmanResampler)
        let after = try plain.decode(data, options: Self.box).pixels
        #expect(after == before)
        #expect(try ImageCodersManager(coders: [PNGCoder()]).decode(data, options: Self.box).pixels == before)
        let full = try PNGCoder().decode(data, options: .init()).pixels
        #expect(before == (try ImageCoding.AreaAverageResampler().resample(full, to: PixelSize(width: 70, height: 70))))
        #expect(try ready.decode(data, options: Self.box).pixels != before)
    }
}

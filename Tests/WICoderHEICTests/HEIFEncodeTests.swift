import Foundation
import Testing
import WICore
import WICoderSupport
import WICoderHEIC
import WITestSupport

@Suite struct HEIFEncodeTests {
    private let coder = HEIFCoder()

    private func source(_ name: String) throws -> Image {
        Image(pixels: try PixelComparison.png("heic/source-\(name).png"))
    }

    private func roundTrip(
        _ image: Image, _ format: ImageFormat, _ options: EncodeOptions = .init(),
        coder: HEIFCoder = HEIFCoder()
    ) throws -> (data: Data, image: Image) {
        let data = try coder.encode(image, as: format, options: options)
        return (data, try HEIFCoder().decode(data, options: .init()))
    }

    @Test(arguments: [ImageFormat.heic, .avif])
    func lossyRoundTrip(format: ImageFormat) throws {
        let hat = try source("hat")
        let (data, decoded) = try roundTrip(hat, format)
        #expect(ImageFormat.detect(data) == format)
        #expect(decoded.size == hat.size)
        #expect(!decoded.hasAlpha)
        // Quality 0.9 at the fast presets; measured 30.6 dB (HEIC) and 30.3 dB (AVIF) against the source.
        #expect(try PixelComparison.psnr(decoded.pixels, hat.pixels) >= (format == .heic ? 30.3 : 30.0))
        // Lower quality: smaller and worse.
        let (smaller, worse) = try roundTrip(hat, format, .init(quality: 0.3))
        #expect(smaller.count < data.count)
        #expect(try PixelComparison.psnr(worse.pixels, hat.pixels) < PixelComparison.psnr(decoded.pixels, hat.pixels))
    }

    @Test(arguments: [ImageFormat.heic, .avif])
    func alphaRoundTrip(format: ImageFormat) throws {
        let gradient = try source("gradient-alpha")
        let (_, decoded) = try roundTrip(gradient, format)
        #expect(decoded.size == PixelSize(width: 64, height: 64))
        #expect(decoded.hasAlpha)
        #expect(try PixelComparison.psnr(decoded.pixels, gradient.pixels) >= 40)
    }

    @Test(arguments: [ImageFormat.heic, .avif])
    func losslessRoundTripIsExact(format: ImageFormat) throws {
        for name in ["hat", "gradient-alpha"] {
            let image = try source(name)
            let (_, decoded) = try roundTrip(image, format, .init(lossless: true))
            #expect(decoded.pixels == image.pixels, "\(name) as \(format)")
        }
    }

    @Test(arguments: [
        PixelSize(width: 1, height: 1), PixelSize(width: 3, height: 5), PixelSize(width: 1, height: 100),
        PixelSize(width: 65, height: 33),
    ])
    func tinyAndOddSizesRoundTripLosslessly(size: PixelSize) throws {
        // libheif pads odd and tiny images for the codecs and crops them back (grid or clap).
        var bytes = [UInt8](repeating: 0, count: size.area * 4)
        for i in 0..<size.area {
            bytes.replaceSubrange(
                i * 4..<i * 4 + 4, with: [UInt8(i % 256), 128, UInt8(i * 7 % 256), i % 3 == 0 ? 100 : 255])
        }
        let image = Image(pixels: try PixelBuffer(width: size.width, height: size.height, format: .rgba8, bytes: bytes))
        for format in [ImageFormat.heic, .avif] {
            let (_, lossless) = try roundTrip(image, format, .init(lossless: true))
            #expect(lossless.pixels == image.pixels, "\(size) \(format)")
            #expect(try roundTrip(image, format).image.size == size)
        }
    }

    @Test func maxPixelSizeScalesDown() throws {
        let (_, decoded) = try roundTrip(try source("hat"), .heic, .init(maxPixelSize: .init(width: 50, height: 50)))
        #expect(decoded.size == PixelSize(width: 40, height: 50))
    }

    @Test(arguments: [ImageFormat.heic, .avif])
    func maxFileSizeSearchesQuality(format: ImageFormat) throws {
        let hat = try source("hat")
        let best = try coder.encode(hat, as: format, options: .init(quality: 1))
        let worst = try coder.encode(hat, as: format, options: .init(quality: 0))
        let limit = (best.count + worst.count) / 2
        let fitted = try coder.encode(hat, as: format, options: .init(quality: 1, maxFileSize: limit))
        #expect(fitted.count <= limit)
        #expect(fitted.count > worst.count)
        // A limit nothing meets: the smallest quality's file.
        #expect(try coder.encode(hat, as: format, options: .init(maxFileSize: 10)) == worst)
        // A limit the requested quality meets: that file.
        #expect(try coder.encode(hat, as: format, options: .init(quality: 1, maxFileSize: best.count)) == best)
    }

    @Test(arguments: [ImageFormat.heic, .avif])
    func embedsAThumbnailWhenAsked(format: ImageFormat) throws {
        let hat = try source("hat")
        let small = HEIFCoder(thumbnailBoxSize: 32)
        let plain = try small.encode(hat, as: format, options: .init())
        let withThumbnail = try small.encode(hat, as: format, options: .init(embedThumbnail: true))
        #expect(withThumbnail.count > plain.count)
        let full = try HEIFCoder().decode(withThumbnail, options: .init())
        #expect(full.size == hat.size)  // the primary image stays the primary
        let box = DecodeOptions(thumbnailPixelSize: .init(width: 20, height: 20))
        // From the 26x32 thumbnail, not from the full image: so different from the plain file's thumbnail decode.
        let fromThumbnail = try HEIFCoder().decode(withThumbnail, options: box)
        let fromFull = try HEIFCoder().decode(plain, options: box)
        #expect(fromThumbnail.size == PixelSize(width: 16, height: 20))
        // 5x smaller each way: the decoder averages 2x2 blocks before the final area average, over 48 dB from a
        // direct area average of the full image.
        let direct = try ImageCoding.AreaAverageResampler().resample(full.pixels, to: fromFull.size)
        #expect(try PixelComparison.psnr(fromFull.pixels, direct) >= 48.5)  // 48.82 HEIC, 48.88 AVIF
        #expect(fromThumbnail.pixels != fromFull.pixels)
        #expect(try PixelComparison.psnr(fromThumbnail.pixels, fromFull.pixels) >= 35.9)  // 36.95 HEIC, 36.37 AVIF
        // An image that already fits the box gets none (libheif skips it).
        let gradient = try source("gradient-alpha")
        #expect(
            try HEIFCoder(thumbnailBoxSize: 64).encode(gradient, as: format, options: .init(embedThumbnail: true))
                == (try HEIFCoder(thumbnailBoxSize: 64).encode(gradient, as: format, options: .init())))
    }

    @Test func metadataAndOrientationAreWritten() throws {
        // Raw pixels plus an orientation are turned upright; the EXIF orientation is rewritten to 1.
        let tagged = try HEIFCoder().decode(Fixtures.data("heic/oriented-6-exif6.heic"), options: .init())
        let hat = try source("hat")
        let turned = Image(pixels: hat.pixels, orientation: .right, metadata: tagged.metadata)
        let (_, decoded) = try roundTrip(turned, .heic)
        #expect(decoded.size == PixelSize(width: 112, height: 90))
        #expect(try PixelComparison.psnr(decoded.pixels, hat.pixels.applying(.right)) >= 30.3)
        #expect(decoded.metadata.exif.flatMap(ImageCoding.ExifReader.orientation(in:)) == .up)
        // ICC and EXIF come back byte for byte (orientation already 1 there).
        let real = try HEIFCoder().decode(
            Fixtures.data("formats/sample.heic"),
            options: .init(thumbnailPixelSize: .init(width: 64, height: 64)))
        let (_, again) = try roundTrip(real, .avif)
        #expect(again.metadata.iccProfile == real.metadata.iccProfile)
        #expect(again.metadata.exif == real.metadata.exif)
        #expect(again.size == PixelSize(width: 64, height: 43))
        // XMP too.
        let xmp = Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF/></x:xmpmeta>".utf8)
        let withXMP = Image(pixels: try source("gradient-alpha").pixels, metadata: ImageMetadata(xmp: xmp))
        #expect(try roundTrip(withXMP, .heic).image.metadata == ImageMetadata(xmp: xmp))
    }

    @Test func sixteenBitAndPremultipliedInputsAreEncoded() throws {
        let wide = try HEIFCoder().decode(
            Fixtures.data("heic/gradient-10b-alpha.heic"), options: .init(keep16Bit: true))
        let (_, decoded) = try roundTrip(wide, .heic)
        #expect(try PixelComparison.psnr(decoded.pixels, wide.pixels) >= 40)
        let premultiplied = Image(pixels: try source("gradient-alpha").pixels.converted(to: .premultipliedRGBA8))
        let (_, straight) = try roundTrip(premultiplied, .avif, .init(lossless: true))
        #expect(straight.pixels == (try premultiplied.pixels.converted(to: .rgba8)))
    }

    @Test func refusesOtherFormats() throws {
        #expect(coder.canEncode(to: .heic) && coder.canEncode(to: .heif) && coder.canEncode(to: .avif))
        #expect(!coder.canEncode(to: .png))
        #expect(
            ImageFormat.detect(try coder.encode(try source("gradient-alpha"), as: .heif, options: .init())) == .heic)
        let error = #expect(throws: ImageError.self) { try coder.encode(try source("hat"), as: .png, options: .init()) }
        #expect(error?.code == .unsupportedFormat)
    }
}

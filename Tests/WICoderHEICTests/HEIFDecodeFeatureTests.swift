import Foundation
import Testing
import WICore
import WICoderSupport
import WICoderHEIC
import WITestSupport

/// Alpha, depth, metadata, container transformations, grids, thumbnails and limits.
@Suite struct HEIFDecodeFeatureTests {
    private func decode(_ file: String, _ options: DecodeOptions = .init()) throws -> Image {
        try HEIFCoder().decode(Fixtures.data(file), options: options)
    }

    @Test func alphaPlaneIsDecoded() throws {
        for file in ["heic/gradient-alpha.heic", "heic/gradient-alpha.avif", "heic/gradient-10b-alpha.heic"] {
            let image = try decode(file)
            #expect(image.hasAlpha, "\(file)")
            #expect(image.pixels.format == .rgba8)
        }
        #expect(try !decode("heic/hat.heic").hasAlpha)
        let straight = try decode("heic/gradient-alpha.heic")
        let premultiplied = try decode("heic/gradient-alpha.heic", .init(premultipliedAlpha: true))
        #expect(premultiplied.pixels.format == .premultipliedRGBA8)
        #expect(try straight.pixels.converted(to: .premultipliedRGBA8) == premultiplied.pixels)
    }

    @Test func premultipliedAlphaFilesAreUnpremultiplied() throws {
        // Twins holding the same stored values; the second flags them premultiplied.
        let stored = try decode("heic/straight-lossless.avif").pixels
        let asStored = try PixelBuffer(width: 64, height: 64, format: .premultipliedRGBA8, bytes: stored.packedBytes())
        #expect(try asStored.converted(to: .rgba8) != stored)
        let straight = try decode("heic/premultiplied-lossless.avif")
        #expect(straight.pixels == (try asStored.converted(to: .rgba8)))
        let premultiplied = try decode("heic/premultiplied-lossless.avif", .init(premultipliedAlpha: true))
        #expect(premultiplied.pixels == asStored)
    }

    @Test func tenBitSourcesKeep16BitsWhenAsked() throws {
        for file in ["formats/sample-heix.heic", "heic/gradient-10b-alpha.heic"] {
            let eight = try decode(file)
            let wide = try decode(file, .init(keep16Bit: true))
            #expect(wide.pixels.format == .rgba16, "\(file)")
            // 10-bit samples scaled to the full 16-bit range: rounded to 8 bits they stay within one level of
            // libheif's own 10-to-8-bit output.
            #expect(try PixelComparison.maxDifference(wide.pixels, eight.pixels) <= 1, "\(file)")
        }
        let opaque = try decode("formats/sample-heix.heic", .init(keep16Bit: true))
        let maximumAlpha = opaque.pixels.withUnsafeBytes { $0.bindMemory(to: UInt16.self)[3] }
        #expect(maximumAlpha == 65535)
        // 10- and 12-bit files made from a 16-bit PNG: samples scaled by their own range (1023 or 4095).
        let source = try PixelComparison.png("heic/source-gradient16-alpha.png", keep16Bit: true)
        // Measured 44.76 and 44.84 dB at 16 bits, 44.60 and 44.59 dB decoded to 8 bits; a range mix-up costs tens.
        for (file, minimum) in [("heic/gradient16-10bit.heic", 44.5), ("heic/gradient16-12bit.heic", 44.5)] {
            let image = try decode(file, .init(keep16Bit: true))
            #expect(image.pixels.format == .rgba16)
            #expect(try PixelComparison.psnr16(image.pixels, source) >= minimum, "\(file)")
            #expect(try PixelComparison.psnr(decode(file).pixels, source) >= 44.3, "\(file)")
        }
        // An 8-bit source stays 8-bit even when 16 bits are allowed.
        #expect(try decode("heic/hat.heic", .init(keep16Bit: true)).pixels.format == .rgba8)
    }

    @Test func iccAndExifAreKept() throws {
        let image = try decode("formats/sample.heic")
        #expect(image.metadata.iccProfile?.count == 3144)
        // The 36-byte Exif item: 4-byte offset header + "Exif\0\0", then a 26-byte TIFF structure.
        let exif = try #require(image.metadata.exif)
        #expect(exif.count == 26)
        #expect(exif.starts(with: Array("MM\0*".utf8)) || exif.starts(with: Array("II*\0".utf8)))
        #expect(try decode("formats/sample.heif").metadata == ImageMetadata())
    }

    @Test func containerTransformationsAreAppliedOnceAndExifOrientationIsNot() throws {
        // make-oriented.c wrote hat.heic's pixels with irot/imir; libheif turns them, EXIF (6) is not applied again.
        let upright = try decode("heic/hat.heic").pixels
        let cases: [(file: String, orientation: ImageOrientation)] = [
            ("heic/oriented-2.heic", .upMirrored), ("heic/oriented-5.heic", .leftMirrored),
            ("heic/oriented-6-exif6.heic", .right),
        ]
        for c in cases {
            for apply in [true, false] {
                let image = try decode(c.file, .init(applyOrientation: apply))
                #expect(image.orientation == .up, "\(c.file)")
                #expect(image.pixels == (try upright.applying(c.orientation)), "\(c.file) applyOrientation \(apply)")
            }
        }
        let tagged = try decode("heic/oriented-6-exif6.heic")
        #expect(tagged.size == PixelSize(width: 112, height: 90))
        #expect(tagged.metadata.exif.flatMap(ImageCoding.ExifReader.orientation(in:)) == .right)  // kept as found
    }

    @Test func gridAndCleanApertureGiveTheDisplayedSize() throws {
        // Both hold the 89x111 top-left of hat.png, coded padded to 90x112: a 1x1 grid item, and a clap crop.
        let grid = try decode("heic/grid-89x111.heic")
        let clap = try decode("heic/clap-89x111.heic")
        #expect(grid.size == PixelSize(width: 89, height: 111))
        #expect(clap.size == PixelSize(width: 89, height: 111))
        #expect(grid.pixels == clap.pixels)
        let source = try PixelComparison.crop(
            PixelComparison.png("heic/source-hat.png"), x: 0, y: 0, width: 89, height: 111)
        #expect(try PixelComparison.psnr(grid.pixels, source) >= 30.2)
    }

    @Test func pixelLimitRefusesBeforeDecoding() throws {
        let error = #expect(throws: ImageError.self) {
            try decode("formats/sample.avif", .init(pixelLimit: 2048 * 858 - 1))
        }
        #expect(error?.code == .pixelLimitExceeded)
        #expect(
            try decode("formats/sample-heix.heic", .init(pixelLimit: 64 * 64)).size == PixelSize(width: 64, height: 64))

        // hat.heic's ispe box rewritten to claim 30000 x 30000 (under libheif's own 32768 limit): refused from the
        // header, at once, not after libheif allocated 3.6 GB.
        var bomb = [UInt8](Fixtures.data("heic/hat.heic"))
        let ispe = try #require(bomb.indices.first { bomb[$0...].starts(with: Array("ispe".utf8)) })
        for offset in [ispe + 8, ispe + 12] { bomb.replaceSubrange(offset..<offset + 4, with: [0, 0, 0x75, 0x30]) }
        let clock = ContinuousClock()
        let started = clock.now
        let bombError = #expect(throws: ImageError.self) { try HEIFCoder().decode(Data(bomb), options: .init()) }
        #expect(bombError?.code == .pixelLimitExceeded)
        #expect(bombError?.message.contains("30000x30000") == true)
        #expect(clock.now - started < .seconds(1))
    }

    @Test(arguments: ["heic/depth-aux.heic", "heic/unknown-aux.heic"])
    func auxiliaryImagesThatAreNotAlphaAreIgnored(file: String) throws {
        // gradient-alpha.heic with its alpha auxiliary image retyped (make-heic-fixtures.sh): a depth map (HEVC
        // auxid:2) and a type no reader knows. The primary image decodes opaque, its colour exactly that of the
        // alpha fixture (same coded picture), with and without a thumbnail size.
        let withAlpha = try decode("heic/gradient-alpha.heic").pixels.packedBytes()
        let image = try decode(file)
        #expect(image.size == PixelSize(width: 64, height: 64))
        #expect(!image.hasAlpha)
        let bytes = image.pixels.packedBytes()
        #expect(bytes.count == 64 * 64 * 4)
        #expect(stride(from: 3, to: bytes.count, by: 4).allSatisfy { bytes[$0] == 255 })
        let colour = { (rgba: [UInt8]) in rgba.enumerated().filter { $0.offset % 4 != 3 }.map(\.element) }
        #expect(colour(bytes) == colour(withAlpha))
        let thumbnail = try decode(file, .init(thumbnailPixelSize: .init(width: 16, height: 16)))
        #expect(thumbnail.size == PixelSize(width: 16, height: 16) && !thumbnail.hasAlpha)
    }

    @Test func severalTopLevelImagesGiveThePrimary() throws {
        // two-images.heic: the 64x64 gradient (primary) and the 90x112 hat.
        let image = try decode("heic/two-images.heic")
        #expect(image.size == PixelSize(width: 64, height: 64))
        #expect(image.hasAlpha)
    }

    /// SDWebImage's `TestImageAnimated.heics` (brand `msf1`: an image sequence in a `moov` track, plus a still
    /// item in `meta`) decodes as that still: libheif 1.15 (Debian 12) reads items only; sequence tracks came with
    /// libheif 1.19. SDWebImage on Apple's ImageIO animates it; Pillow (pillow-heif) also reads one 256x144 frame.
    /// This pins what Debian's libheif gives, so that a newer libheif that reads the track shows up here.
    @Test func anImageSequenceDecodesAsItsStill() throws {
        let data = Fixtures.data("heic/sdwebimage-animated.heics")
        #expect(ImageFormat.detect(data) == .heif)  // major brand msf1, as SDWebImage reads it
        let image = try HEIFCoder().decode(data, options: .init())
        #expect(image.format == .heif)
        #expect(image.size == PixelSize(width: 256, height: 144))
        #expect(image.frameCount == 1)
    }

    @Test func embeddedThumbnailIsUsedWhenBigEnough() throws {
        let data = Fixtures.data("heic/hat-thumbnail48.heic")  // 90x112 with a 39x48 thumbnail
        let full = try HEIFCoder().decode(data, options: .init()).pixels
        #expect(full == (try decode("heic/hat.heic").pixels))

        // 24x30 fits inside the thumbnail: made from it, so not equal to the resampled full image but close.
        let small = try HEIFCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 30, height: 30)))
        #expect(small.size == PixelSize(width: 24, height: 30))
        #expect(small.flags.contains(.thumbnail))
        let fromFull = try ImageCoding.AreaAverageResampler().resample(full, to: small.size)
        #expect(small.pixels != fromFull)
        #expect(try PixelComparison.psnr(small.pixels, fromFull) >= 25)

        // 48x60 is bigger than the thumbnail: the full image is decoded and resampled.
        let large = try HEIFCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 60, height: 60)))
        #expect(large.size == PixelSize(width: 48, height: 60))
        #expect(large.flags.contains(.thumbnail))
        #expect(large.pixels == (try ImageCoding.AreaAverageResampler().resample(full, to: large.size)))

        // Exact size (aspect not kept) and the byte limit follow the same rule.
        let exact = try HEIFCoder().decode(
            data,
            options: .init(
                thumbnailPixelSize: .init(width: 20, height: 20),
                preserveAspectRatio: false))
        #expect(exact.size == PixelSize(width: 20, height: 20))
        let limited = try HEIFCoder().decode(data, options: .init(scaleDownLimitBytes: 4000))
        #expect(limited.pixels.byteCount <= 4000 && limited.flags.contains(.thumbnail))
        #expect(limited.size == PixelSize(width: 28, height: 35))
    }

    @Test func largeReductionsAverageWholeBlocksFirstOnlyWhenOpaque() throws {
        // sample.heic (1440x960, opaque): 2x2 blocks for 256 px, 10x10 for 64 px, then the options' resampler (here
        // WICore's area average, the default); against its direct resample of the full image: 53.20 and 48.11 dB.
        let full = try decode("formats/sample.heic").pixels
        let cases: [(Int, PixelSize, Double)] = [
            (256, .init(width: 256, height: 171), 53.0),
            (64, .init(width: 64, height: 43), 48.0),
        ]
        for (size, expected, floor) in cases {
            let box = DecodeOptions(thumbnailPixelSize: .init(width: size, height: size))
            let thumbnail = try decode("formats/sample.heic", box)
            #expect(thumbnail.size == expected && thumbnail.flags.contains(.thumbnail))
            let direct = try ImageCoding.AreaAverageResampler().resample(full, to: expected)
            #expect(thumbnail.pixels != direct)
            #expect(try PixelComparison.psnr(thumbnail.pixels, direct) >= floor)
        }
        // With alpha, no block averaging (it would bleed transparent pixels' colour): exactly the direct resample.
        let alpha = try decode("heic/gradient-alpha.heic").pixels
        let small = try decode("heic/gradient-alpha.heic", .init(thumbnailPixelSize: .init(width: 8, height: 8)))
        #expect(small.pixels == (try ImageCoding.AreaAverageResampler().resample(alpha, to: small.size)))
    }

    @Test func realThumbnailOfALargeFile() throws {
        // sample.heif: 1440x960 with a 240x160 thumbnail.
        let image = try decode("formats/sample.heif", .init(thumbnailPixelSize: .init(width: 200, height: 200)))
        #expect(image.size == PixelSize(width: 200, height: 133))
        #expect(image.flags.contains(.thumbnail))
    }

    @Test func decodedThroughTheManager() throws {
        let manager = ImageCodersManager(coders: [HEIFCoder()])
        #expect(
            try manager.decode(Fixtures.data("heic/hat.avif"), options: .init()).size
                == PixelSize(width: 90, height: 112))
        let error = #expect(throws: ImageError.self) {
            try HEIFCoder().decode(Fixtures.data("formats/sample.png"), options: .init())
        }
        #expect(error?.code == .unsupportedFormat)
    }
}

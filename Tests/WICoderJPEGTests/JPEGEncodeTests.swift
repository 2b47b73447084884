import Foundation
import Testing
import WICore
import WICoderJPEG
import WITestSupport

@Suite struct JPEGEncodeTests {
    static let photo: Image = try! JPEGCoder().decode(Fixtures.data("jpeg/progressive-nuke.jpg"), options: .init())

    private func decode(_ data: Data, _ options: DecodeOptions = .init()) throws -> Image {
        try JPEGCoder().decode(data, options: options)
    }

    @Test func roundTripKeepsTheSizeAndThePicture() throws {
        let data = try JPEGCoder().encode(Self.photo, as: .jpeg, options: .init(quality: 0.9))
        let again = try decode(data)
        #expect(again.size == Self.photo.size)
        #expect(again.frameCount == 1)
        #expect(psnr(again.pixels, Self.photo.pixels) > 38)
        #expect(jpegMarkers(data).contains(0xC0))  // baseline by default
        #expect(samplingFactors(data).map { [$0.0, $0.1] } == [[2, 2], [1, 1], [1, 1]])  // 4:2:0 by default
    }

    @Test func higherQualityIsLargerAndCloser() throws {
        let qualities = [0.1, 0.5, 0.9, 1.0]
        let files = try qualities.map { try JPEGCoder().encode(Self.photo, as: .jpeg, options: .init(quality: $0)) }
        #expect(zip(files, files.dropFirst()).allSatisfy { $0.count < $1.count })
        let scores = try files.map { psnr(try decode($0).pixels, Self.photo.pixels) }
        #expect(zip(scores, scores.dropFirst()).allSatisfy { $0 < $1 })
        #expect(scores[0] > 22)
    }

    @Test func progressiveHuffmanAndSubsamplingOptions() throws {
        let baseline = try JPEGCoder().encode(Self.photo, as: .jpeg, options: .init())
        let progressive = try JPEGCoder(progressive: true).encode(Self.photo, as: .jpeg, options: .init())
        #expect(jpegMarkers(progressive).contains(0xC2) && !jpegMarkers(progressive).contains(0xC0))
        // The same quantized coefficients, coded differently: identical pixels.
        #expect(try decode(progressive).pixels == decode(baseline).pixels)
        let unoptimized = try JPEGCoder(optimizeHuffman: false).encode(Self.photo, as: .jpeg, options: .init())
        #expect(unoptimized.count > baseline.count)
        #expect(try decode(unoptimized).pixels == decode(baseline).pixels)
        let full = try JPEGCoder(chromaSubsampling: .yuv444).encode(Self.photo, as: .jpeg, options: .init())
        #expect(samplingFactors(full).map { [$0.0, $0.1] } == [[1, 1], [1, 1], [1, 1]])
        #expect(full.count > baseline.count)
        #expect(psnr(try decode(full).pixels, Self.photo.pixels) > psnr(try decode(baseline).pixels, Self.photo.pixels))
    }

    @Test func alphaIsCompositedOntoTheBackground() throws {
        let halfBlack = Image(pixels: try solidBuffer(width: 16, height: 16, gray: 0, alpha: 128))
        let onWhite = try decode(try JPEGCoder().encode(halfBlack, as: .jpeg, options: .init(quality: 1)))
        #expect(onWhite.pixels.color(x: 8, y: 8) == RGBAColor(red: 127, green: 127, blue: 127))  // white by default
        let clear = Image(pixels: try solidBuffer(width: 16, height: 16, gray: 0, alpha: 0))
        let onRed = try decode(
            try JPEGCoder().encode(
                clear, as: .jpeg, options: .init(quality: 1, backgroundColor: .init(red: 255, green: 0, blue: 0))))
        let red = onRed.pixels.color(x: 8, y: 8)
        #expect(red.red >= 253 && red.green <= 2 && red.blue <= 2 && red.alpha == 255)
    }

    @Test func maxPixelSizeScalesDown() throws {
        let data = try JPEGCoder().encode(
            Self.photo, as: .jpeg, options: .init(maxPixelSize: .init(width: 100, height: 100)))
        #expect(try decode(data).size == PixelSize(width: 100, height: 67))
    }

    @Test func maxFileSizeSearchesQuality() throws {
        let smallest = try JPEGCoder().encode(Self.photo, as: .jpeg, options: .init(quality: 0.01)).count
        let largest = try JPEGCoder().encode(Self.photo, as: .jpeg, options: .init(quality: 0.9)).count
        let limit = (smallest + largest) / 2
        let fitted = try JPEGCoder().encode(Self.photo, as: .jpeg, options: .init(quality: 0.9, maxFileSize: limit))
        #expect(fitted.count <= limit && fitted.count >= smallest)
        // The best quality that fits: one step up no longer fits.
        let quality = (1...90).last { q in
            (try? JPEGCoder().encode(Self.photo, as: .jpeg, options: .init(quality: Double(q) / 100)).count <= limit)
                ?? false
        }!
        let next = try JPEGCoder().encode(Self.photo, as: .jpeg, options: .init(quality: Double(quality + 1) / 100))
        #expect(next.count > limit)
        #expect(
            fitted == (try JPEGCoder().encode(Self.photo, as: .jpeg, options: .init(quality: Double(quality) / 100))))
        // Nothing fits: the smallest quality's file. Everything fits: the requested quality's file.
        let tiny = try JPEGCoder().encode(Self.photo, as: .jpeg, options: .init(quality: 0.9, maxFileSize: 10))
        #expect(tiny.count == smallest)
        let roomy = try JPEGCoder().encode(Self.photo, as: .jpeg, options: .init(quality: 0.9, maxFileSize: largest))
        #expect(roomy.count == largest)
    }

    @Test func exifOrientationIsWrittenForThePixelsAsStored() throws {
        let data = Fixtures.data("jpeg/right-orientation.jpg")  // stored 480x640, orientation 6
        // Upright pixels are written with orientation 1, so they are not turned again.
        let upright = try decode(data)
        let written = try JPEGCoder().encode(upright, as: .jpeg, options: .init())
        let reread = try decode(written, .init(applyOrientation: false))
        #expect(reread.orientation == .up)
        #expect(reread.size == PixelSize(width: 640, height: 480))
        #expect(reread.metadata.exif.map { $0.count } == upright.metadata.exif.map { $0.count })
        // Raw pixels keep orientation 6 and come back upright.
        let raw = try decode(data, .init(applyOrientation: false))
        let rawWritten = try JPEGCoder().encode(raw, as: .jpeg, options: .init())
        let turned = try decode(rawWritten)
        #expect(turned.size == PixelSize(width: 640, height: 480))
        #expect(psnr(turned.pixels, upright.pixels) > 35)
        // An image made in memory with an orientation and no EXIF gets a minimal EXIF block.
        let made = Image(pixels: raw.pixels, orientation: .left)
        let madeBack = try decode(
            try JPEGCoder().encode(made, as: .jpeg, options: .init()), .init(applyOrientation: false))
        #expect(madeBack.orientation == .left)
    }

    @Test func iccProfileIsKept() throws {
        let source = try decode(Fixtures.data("jpeg/progressive-cat.jpg"))
        let again = try decode(try JPEGCoder().encode(source, as: .jpeg, options: .init()))
        #expect(again.metadata.iccProfile == source.metadata.iccProfile)
        #expect(again.metadata.iccProfile?.count == 3048)
    }

    @Test func refusesOtherFormats() throws {
        let error = #expect(throws: ImageError.self) {
            try JPEGCoder().encode(Self.photo, as: .png, options: .init())
        }
        #expect(error?.code == .unsupportedFormat)
        #expect(JPEGCoder().canEncode(to: .jpeg) && !JPEGCoder().canEncode(to: .png))
    }
}

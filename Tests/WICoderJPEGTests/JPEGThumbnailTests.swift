import Foundation
import Testing
import WICore
@testable import WICoderJPEG
import WITestSupport

/// Thumbnails use libjpeg's DCT scaling first: the full-size bitmap of a large photo is never allocated.
@Suite struct JPEGThumbnailTests {
    @Test func picksTheSmallestScaleStillCoveringTheTarget() {
        let size = PixelSize(width: 6000, height: 4000)
        #expect(JPEGScale.numerator(for: size, target: nil) == 8)
        #expect(JPEGScale.numerator(for: size, target: PixelSize(width: 256, height: 171)) == 1)  // 750x500
        #expect(JPEGScale.numerator(for: size, target: PixelSize(width: 1500, height: 1000)) == 2)  // exactly 2/8
        #expect(JPEGScale.numerator(for: size, target: PixelSize(width: 1501, height: 1000)) == 4)  // 3000x2000
        #expect(JPEGScale.numerator(for: size, target: PixelSize(width: 3001, height: 10)) == 8)  // never 6/8
        #expect(JPEGScale.scaled(PixelSize(width: 5250, height: 3450), by: 1) == PixelSize(width: 657, height: 432))
    }

    @Test func largePhotoTo256NeverDecodesFullSize() throws {
        let source = Image(pixels: try solidBuffer(width: 6000, height: 4000, gray: 200))
        let data = try JPEGCoder().encode(source, as: .jpeg, options: .init(quality: 0.5))
        let (thumbnail, decoded) = try JPEGCoder().decodeReportingScale(
            data, options: .init(thumbnailPixelSize: .init(width: 256, height: 256)))
        // The only bitmap libjpeg filled is 1/8 of the stored size (750x500 = 1.5 MB, not 96 MB) ...
        #expect(decoded == PixelSize(width: 750, height: 500))
        // ... which is then resampled to the box.
        #expect(thumbnail.size == PixelSize(width: 256, height: 171))
        #expect(thumbnail.flags.contains(.thumbnail))
        #expect(thumbnail.pixels.color(x: 128, y: 85) == RGBAColor(red: 200, green: 200, blue: 200))
    }

    @Test func sdWebImageSizeRuleOnAProgressiveFile() throws {
        // 5250x3450 progressive (the size of SDWebImage's TestImageLarge.jpg) into 400x300 gives 400x263.
        let source = Image(pixels: try solidBuffer(width: 5250, height: 3450, gray: 90))
        let data = try JPEGCoder(progressive: true).encode(source, as: .jpeg, options: .init(quality: 0.5))
        #expect(jpegMarkers(data).contains(0xC2))
        let (thumbnail, decoded) = try JPEGCoder().decodeReportingScale(
            data, options: .init(thumbnailPixelSize: .init(width: 400, height: 300)))
        #expect(decoded == PixelSize(width: 657, height: 432))
        #expect(thumbnail.size == PixelSize(width: 400, height: 263))
        let exact = try JPEGCoder().decode(
            data,
            options: .init(
                thumbnailPixelSize: .init(width: 400, height: 300),
                preserveAspectRatio: false))
        #expect(exact.size == PixelSize(width: 400, height: 300))
    }

    @Test func dctScaleAloneIsStillFlaggedAThumbnail() throws {
        let data = Fixtures.data("jpeg/progressive-nuke.jpg")  // 450x300
        let (image, decoded) = try JPEGCoder().decodeReportingScale(
            data, options: .init(thumbnailPixelSize: .init(width: 225, height: 150)))
        #expect(decoded == PixelSize(width: 225, height: 150))  // exactly 4/8: nothing left to resample
        #expect(image.size == PixelSize(width: 225, height: 150))
        #expect(image.flags.contains(.thumbnail))
        let larger = try JPEGCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 1000, height: 1000)))
        #expect(larger.size == PixelSize(width: 450, height: 300))
        #expect(!larger.flags.contains(.thumbnail))
    }

    @Test func scaleDownLimitBytesWinsOverThumbnail() throws {
        let data = Fixtures.data("jpeg/progressive-nuke.jpg")
        let (image, decoded) = try JPEGCoder().decodeReportingScale(
            data, options: .init(thumbnailPixelSize: .init(width: 400, height: 400), scaleDownLimitBytes: 40_000))
        #expect(image.pixels.byteCount <= 40_000)
        #expect(image.size == PixelSize(width: 122, height: 81))
        #expect(decoded == PixelSize(width: 225, height: 150))  // 4/8: 3/8 (169x113) is never chosen
    }
}

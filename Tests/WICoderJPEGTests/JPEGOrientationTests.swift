import Foundation
import Testing
import WICore
import WICoderJPEG
import WITestSupport

/// EXIF orientation 1-8 (recurser/exif-orientation-examples, DCT-scaled to 225x150 and re-encoded: see
/// Tests/Fixtures/make-jpeg-fixtures.sh): each file turned upright must show the orientation-1 picture.
@Suite struct JPEGOrientationTests {
    static let upright: Image = try! JPEGCoder().decode(Fixtures.data("jpeg-orientation/Landscape_1.jpg"), options: .init())

    @Test(arguments: ImageOrientation.allCases)
    func uprightMatchesOrientationOne(orientation: ImageOrientation) throws {
        let data = Fixtures.data("jpeg-orientation/Landscape_\(orientation.rawValue).jpg")
        let raw = try JPEGCoder().decode(data, options: .init(applyOrientation: false))
        #expect(raw.orientation == orientation)
        #expect(raw.size == (orientation.swapsDimensions ? PixelSize(width: 150, height: 225) : PixelSize(width: 225, height: 150)))
        let image = try JPEGCoder().decode(data, options: .init())
        #expect(image.orientation == .up)
        #expect(image.size == PixelSize(width: 225, height: 150))
        #expect(image.metadata.exif.flatMap(ImageCoding.ExifReader.orientation(in:)) == orientation)
        // Within JPEG noise (each file was encoded separately, then again at 1/8) of the orientation-1 file; a wrong
        // turn scores 8 to 10 dB.
        #expect(psnr(image.pixels, Self.upright.pixels) > 29)   // 30.6 to 31.9 dB
        if orientation != .up {
            // Not turned at all, or (5-8) turned the wrong way.
            let wrong = orientation.swapsDimensions ? try raw.pixels.applying(orientation == .right ? .left : .right) : raw.pixels
            #expect(psnr(wrong, Self.upright.pixels) < 20)
        }
    }

    @Test func thumbnailOfARotatedFileFitsTheBoxUpright() throws {
        // Stored 480x640 with orientation 6: displayed 640x480.
        let data = Fixtures.data("jpeg/right-orientation.jpg")
        let full = try JPEGCoder().decode(data, options: .init())
        #expect(full.size == PixelSize(width: 640, height: 480))
        let (thumbnail, decoded) = try JPEGCoder().decodeReportingScale(
            data, options: .init(thumbnailPixelSize: .init(width: 160, height: 160)))
        #expect(thumbnail.size == PixelSize(width: 160, height: 120))
        #expect(decoded == PixelSize(width: 120, height: 160))   // 2/8 of the stored size, exactly the target
        #expect(thumbnail.flags.contains(.thumbnail))
    }
}

import Foundation
import Testing
import WICore
import WICoderSupport
import WICoderJPEG
import WITestSupport

/// EXIF orientation 1-8 (recurser/exif-orientation-examples, DCT-scaled to 225x150 and re-encoded: see
/// Tests/Fixtures/make-jpeg-fixtures.sh): each file turned upright must show the orientation-1 picture.
@Suite struct JPEGOrientationTests {
    static let upright: Image = try! JPEGCoder().decode(
        Fixtures.data("jpeg-orientation/Landscape_1.jpg"), options: .init())

    @Test(arguments: ImageOrientation.allCases)
    func uprightMatchesOrientationOne(orientation: ImageOrientation) throws {
        let data = Fixtures.data("jpeg-orientation/Landscape_\(orientation.rawValue).jpg")
        let raw = try JPEGCoder().decode(data, options: .init(applyOrientation: false))
        #expect(raw.orientation == orientation)
        #expect(
            raw.size
                == (orientation.swapsDimensions
                    ? PixelSize(width: 150, height: 225) : PixelSize(width: 225, height: 150)))
        let image = try JPEGCoder().decode(data, options: .init())
        #expect(image.orientation == .up)
        #expect(image.size == PixelSize(width: 225, height: 150))
        #expect(image.metadata.exif.flatMap(ImageCoding.ExifReader.orientation(in:)) == orientation)
        // Within JPEG noise (each file was encoded separately, then again at 1/8) of the orientation-1 file; a wrong
        // turn scores 8 to 10 dB.
        #expect(psnr(image.pixels, Self.upright.pixels) > 29)  // 30.6 to 31.9 dB
        if orientation != .up {
            // Not turned at all, or (5-8) turned the wrong way.
            let wrong =
                orientation.swapsDimensions
                ? try raw.pixels.applying(orientation == .right ? .left : .right) : raw.pixels
            #expect(psnr(wrong, Self.upright.pixels) < 20)
        }
    }

    /// Orientation in XMP only, laid out as SDWebImage's TestJFIF.jpg (JFIF, EXIF with an empty IFD0 and a
    /// thumbnail, XMP tiff:Orientation 3; built with exiftool around Landscape_3.jpg's scan data, see
    /// make-jpeg-fixtures.sh): applied as SDWebImage's test expects (Down) and as Pillow's getexif() reads it, and
    /// the XMP packet is kept in `metadata.xmp`.
    @Test func anXMPOnlyOrientationIsApplied() throws {
        let data = Fixtures.data("jpeg-orientation/xmp-only-3.jpg")
        let raw = try JPEGCoder().decode(data, options: .init(applyOrientation: false))
        #expect(raw.orientation == .down)
        let exif = try #require(raw.metadata.exif)
        #expect(ImageCoding.ExifReader.orientation(in: exif) == nil)
        let xmp = try #require(raw.metadata.xmp)
        #expect(String(decoding: xmp, as: UTF8.self).contains("<tiff:Orientation>3</tiff:Orientation>"))
        #expect(ImageCoding.XMPReader.orientation(in: xmp) == .down)
        let image = try JPEGCoder().decode(data, options: .init())
        #expect(image.orientation == .up)
        #expect(image.metadata.xmp == xmp)
        // The same scan data as Landscape_3.jpg, which says 3 in its EXIF: the same upright pixels.
        let exifThree = try JPEGCoder().decode(Fixtures.data("jpeg-orientation/Landscape_3.jpg"), options: .init())
        #expect(image.pixels == exifThree.pixels)
        #expect(psnr(image.pixels, Self.upright.pixels) > 29)
        #expect(psnr(raw.pixels, Self.upright.pixels) < 20)  // ignoring the XMP leaves it upside down
        // Incremental decoding reads the same header.
        let decoder = try #require(JPEGCoder().makeIncrementalDecoder(header: data.prefix(64), options: .init()))
        _ = try decoder.append(data)
        let incremental = try decoder.finish()
        #expect(incremental.orientation == .up && incremental.pixels == image.pixels)
    }

    /// EXIF's orientation, when there is one, wins over the XMP's (Landscape_1.jpg's EXIF says 1; exiftool added an
    /// XMP tiff:Orientation of 6): upright as stored, as Pillow reads it.
    @Test func exifOrientationWinsOverXMP() throws {
        let data = Fixtures.data("jpeg-orientation/xmp-6-exif-1.jpg")
        let image = try JPEGCoder().decode(data, options: .init())
        #expect(ImageCoding.XMPReader.orientation(in: try #require(image.metadata.xmp)) == .right)
        #expect(image.size == PixelSize(width: 225, height: 150))
        #expect(image.pixels == Self.upright.pixels)
    }

    @Test func thumbnailOfARotatedFileFitsTheBoxUpright() throws {
        // Stored 480x640 with orientation 6: displayed 640x480.
        let data = Fixtures.data("jpeg/right-orientation.jpg")
        let full = try JPEGCoder().decode(data, options: .init())
        #expect(full.size == PixelSize(width: 640, height: 480))
        let (thumbnail, decoded) = try JPEGCoder().decodeReportingScale(
            data, options: .init(thumbnailPixelSize: .init(width: 160, height: 160)))
        #expect(thumbnail.size == PixelSize(width: 160, height: 120))
        #expect(decoded == PixelSize(width: 120, height: 160))  // 2/8 of the stored size, exactly the target
        #expect(thumbnail.flags.contains(.thumbnail))
    }
}

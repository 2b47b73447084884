import Foundation
import Testing
import WICore
import WICoderSupport
import WICoderJPEG
import WITestSupport

@Suite struct JPEGDecodeTests {
    /// `data` with its SOF segment changed by `edit` (given the bytes and the SOF marker's index).
    private func patchingSOF(_ data: Data, _ edit: (inout [UInt8], Int) -> Void) -> Data {
        var bytes = [UInt8](data)
        var i = 2
        while bytes[i] == 0xFF, ![0xC0, 0xC1, 0xC2].contains(bytes[i + 1]) {
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        edit(&bytes, i)
        return Data(bytes)
    }

    @Test func sniffsByMagicOnly() {
        #expect(JPEGCoder().canDecode(Fixtures.data("jpeg/hat.jpg")))
        #expect(!JPEGCoder().canDecode(Fixtures.data("formats/sample.png")))
        #expect(!JPEGCoder().canDecode(Data([0xFF, 0xD8])))
        #expect(JPEGCoder().decodingFormats == [.jpeg])
    }

    @Test func keepsICCExifAndXMP() throws {
        let icc = try JPEGCoder().decode(Fixtures.data("jpeg/jpg-srgb-icc.jpg"), options: .init())
        #expect(icc.metadata.iccProfile?.count == 3048)
        #expect(icc.metadata.iccProfile.map { String(decoding: $0[36..<40], as: UTF8.self) } == "acsp")
        let cat = try JPEGCoder().decode(Fixtures.data("jpeg/progressive-cat.jpg"), options: .init())
        #expect(cat.metadata.iccProfile?.count == 3048)
        let rotated = try JPEGCoder().decode(Fixtures.data("jpeg/right-orientation.jpg"), options: .init())
        let exif = try #require(rotated.metadata.exif)
        #expect(exif.starts(with: [0x4D, 0x4D, 0x00, 0x2A]))  // TIFF header: the "Exif\0\0" prefix is dropped
        #expect(ImageCoding.ExifReader.orientation(in: exif) == .right)
        let tagged = try JPEGCoder().decode(Fixtures.data("jpeg/exif-xmp-metadata.jpg"), options: .init())
        #expect(tagged.metadata.exif == nil)
        let xmp = try #require(tagged.metadata.xmp)
        #expect(xmp.count == 3742 - 2 - 29)
        #expect(String(decoding: xmp, as: UTF8.self).contains("x:xmpmeta"))
        let plain = try JPEGCoder().decode(Fixtures.data("jpeg/hat.jpg"), options: .init())
        #expect(plain.metadata == ImageMetadata())
    }

    @Test func pixelLimitRefusesBeforeAllocating() throws {
        let data = Fixtures.data("jpeg/hat.jpg")  // 90x112
        let error = #expect(throws: ImageError.self) {
            try JPEGCoder().decode(data, options: .init(pixelLimit: 90 * 111))
        }
        #expect(error?.code == .pixelLimitExceeded)
        #expect(
            try JPEGCoder().decode(data, options: .init(pixelLimit: 90 * 112)).size == PixelSize(width: 90, height: 112)
        )
        // A header claiming 65000 x 65000 pixels (4.2 GP): refused at once, not after a 16 GB allocation.
        let bomb = patchingSOF(data) { bytes, i in
            bytes[i + 5] = 0xFD
            bytes[i + 6] = 0xE8
            bytes[i + 7] = 0xFD
            bytes[i + 8] = 0xE8
        }
        let clock = ContinuousClock()
        let started = clock.now
        let bombError = #expect(throws: ImageError.self) { try JPEGCoder().decode(bomb, options: .init()) }
        #expect(bombError?.code == .pixelLimitExceeded)
        #expect(clock.now - started < .seconds(1))
    }

    @Test func twelveBitAndLosslessAreRefusedClearly() {
        let data = Fixtures.data("jpeg/hat.jpg")
        let twelveBit = patchingSOF(data) { bytes, i in bytes[i + 4] = 12 }
        let error = #expect(throws: ImageError.self) { try JPEGCoder().decode(twelveBit, options: .init()) }
        #expect(error?.code == .badImageData)
        #expect(
            error?.message == "JPEG: Unsupported JPEG data precision 12 (libjpeg-turbo 2.1.5 decodes 8-bit JPEG only)")
        let lossless = patchingSOF(data) { bytes, i in bytes[i + 1] = 0xC3 }
        let losslessError = #expect(throws: ImageError.self) { try JPEGCoder().decode(lossless, options: .init()) }
        #expect(losslessError?.code == .badImageData)
        #expect(
            losslessError?.message
                == "JPEG: Unsupported JPEG process: SOF type 0xc3 (libjpeg-turbo 2.1.5 has no lossless or hierarchical JPEG)"
        )
    }

    @Test func premultipliedOutputOfAnOpaqueImageEqualsStraight() throws {
        let data = Fixtures.data("jpeg/hat.jpg")
        let straight = try JPEGCoder().decode(data, options: .init())
        let premultiplied = try JPEGCoder().decode(data, options: .init(premultipliedAlpha: true))
        #expect(premultiplied.pixels.format == .premultipliedRGBA8)
        #expect(premultiplied.pixels.packedBytes() == straight.pixels.packedBytes())
        #expect(!straight.hasAlpha)
        // Marked opaque by the coder (no alpha scan), in both forms and in a thumbnail.
        #expect(straight.pixels.isKnownOpaque && premultiplied.pixels.isKnownOpaque)
        let thumbnail = try JPEGCoder().decode(
            data, options: .init(thumbnailPixelSize: PixelSize(width: 16, height: 16)))
        #expect(thumbnail.pixels.isKnownOpaque && !thumbnail.hasAlpha)
    }

    @Test func truncatedFileGivesAPaddedImageFlaggedIncomplete() throws {
        let data = Fixtures.data("jpeg/hat.jpg")
        let whole = try JPEGCoder().decode(data, options: .init())
        #expect(!whole.flags.contains(.incomplete))
        let half = try JPEGCoder().decode(data.prefix(data.count / 2), options: .init())
        #expect(half.flags.contains(.incomplete))
        #expect(half.size == whole.size)
        #expect(half.pixels.color(x: 10, y: 5) == whole.pixels.color(x: 10, y: 5))  // top rows arrived
        #expect(half.pixels.color(x: 45, y: 110) == RGBAColor(red: 128, green: 128, blue: 128))  // padding is grey
        // Without EOI only (all image data present), nothing is missing.
        let noEOI = try JPEGCoder().decode(data.dropLast(2), options: .init())
        #expect(!noEOI.flags.contains(.incomplete))
        #expect(noEOI.pixels == whole.pixels)
        let headerOnly = #expect(throws: ImageError.self) { try JPEGCoder().decode(data.prefix(200), options: .init()) }
        #expect(headerOnly?.code == .badImageData)
    }

    @Test func decodedThroughTheManager() throws {
        let manager = ImageCodersManager(coders: [JPEGCoder()])
        let image = try manager.decode(Fixtures.data("formats/sample.jpg"), options: .init())
        #expect(image.format == .jpeg)
        #expect(manager.decodingFormats == [.jpeg])
    }
}

import Foundation
import Testing
import WICore
import WITestSupport

@Suite struct ImageFormatDetectionTests {
    @Test(arguments: [
        ("sample.jpg", ImageFormat.jpeg), ("sample.png", .png), ("sample.gif", .gif), ("sample.webp", .webp),
        ("sample.heic", .heic), ("sample-heix.heic", .heic), ("sample.heif", .heif), ("sample.avif", .avif), ("sample.tiff", .tiff),
        ("sample.bmp", .bmp), ("sample.pdf", .pdf), ("sample.svg", .svg), ("sample.jxl", .jxl),
        ("sample-container.jxl", .jxl),
    ])
    func detectsRealFiles(file: String, format: ImageFormat) {
        #expect(ImageFormat.detect(Fixtures.data("formats/\(file)")) == format)
    }

    @Test func shortAndGarbageDataIsUndefined() {
        #expect(ImageFormat.detect(Data()) == .undefined)
        #expect(ImageFormat.detect(Data([0xFF, 0xD8])) == .undefined)          // JPEG magic cut short
        #expect(ImageFormat.detect(Data([0x89, 0x50, 0x4E, 0x47])) == .undefined)  // PNG signature cut short
        #expect(ImageFormat.detect(Data("RIFF\0\0\0\0WAVE".utf8)) == .undefined)  // RIFF, but audio
        #expect(ImageFormat.detect(Data("BM".utf8)) == .undefined)              // BMP needs a DIB header
        #expect(ImageFormat.detect(Data("hello, world".utf8)) == .undefined)
        var random = SeededRandom(seed: 7)
        let noise = Data((0..<4096).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) })
        #expect(ImageFormat.detect(noise) == .undefined)
    }

    @Test func jpegXLCodestreamAndContainerSignatures() {
        #expect(ImageFormat.detect(Data([0xFF, 0x0A])) == .jxl)
        #expect(ImageFormat.detect(Data([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])) == .jxl)
        #expect(ImageFormat.detect(Data([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87])) == .undefined)
        #expect(ImageFormat.detect(Data([0xFF])) == .undefined)
        #expect(ImageFormat.named("jxl") == .jxl)
    }

    @Test func svgNeedsTheClosingTagNearTheEnd() {
        let svg = "<svg xmlns='http://www.w3.org/2000/svg'></svg>\n"
        #expect(ImageFormat.detect(Data(svg.utf8)) == .svg)
        let farFromEnd = svg + String(repeating: " ", count: 200)
        #expect(ImageFormat.detect(Data(farFromEnd.utf8)) == .undefined)
    }

    @Test func heifBrandsDecideBetweenHEICAVIFAndHEIF() {
        func ftyp(_ major: String, _ compatible: [String]) -> Data {
            let size = 16 + 4 * compatible.count
            var data = Data([0, 0, 0, UInt8(size)])
            data += Data("ftyp".utf8) + Data(major.utf8) + Data([0, 0, 0, 0])
            for brand in compatible { data += Data(brand.utf8) }
            return data
        }
        #expect(ImageFormat.detect(ftyp("heic", ["mif1"])) == .heic)
        #expect(ImageFormat.detect(ftyp("hevc", [])) == .heic)
        #expect(ImageFormat.detect(ftyp("avif", ["mif1"])) == .avif)
        #expect(ImageFormat.detect(ftyp("avis", [])) == .avif)
        #expect(ImageFormat.detect(ftyp("mif1", ["avif"])) == .avif)
        #expect(ImageFormat.detect(ftyp("mif1", ["heic"])) == .heif)   // SDWebImage's rule: the major brand decides
        #expect(ImageFormat.detect(ftyp("miaf", ["heic"])) == .heic)
        #expect(ImageFormat.detect(ftyp("mif1", ["miaf"])) == .heif)
        #expect(ImageFormat.detect(ftyp("msf1", [])) == .heif)
        #expect(ImageFormat.detect(ftyp("isom", ["mp41"])) == .undefined)   // an MP4 video
    }

    @Test func namesAndExtensions() {
        #expect(ImageFormat.named("JPG") == .jpeg)
        #expect(ImageFormat.named("jpeg") == .jpeg)
        #expect(ImageFormat.named("tif") == .tiff)
        #expect(ImageFormat.named("avif") == .avif)
        #expect(ImageFormat.named("qoi") == nil)
        let qoi = ImageFormat("qoi", mimeType: "image/qoi", fileExtension: "qoi")
        #expect(qoi == ImageFormat("qoi", mimeType: "other", fileExtension: "q"))   // identity is the identifier
        #expect(qoi != .png)
    }
}

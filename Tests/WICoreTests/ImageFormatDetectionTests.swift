import Foundation
import Testing
import WICore
import WITestSupport

@Suite struct ImageFormatDetectionTests {
    @Test(arguments: [
        ("sample.jpg", ImageFormat.jpeg), ("sample.png", .png), ("sample.gif", .gif), ("sample.webp", .webp),
        ("sample.heic", .heic), ("sample-heix.heic", .heic), ("sample.heif", .heif), ("sample.avif", .avif),
        ("sample.tiff", .tiff),
        ("sample.bmp", .bmp), ("sample.pdf", .pdf), ("sample.svg", .svg), ("sample.jxl", .jxl),
        ("sample-container.jxl", .jxl),
    ])
    func detectsRealFiles(file: String, format: ImageFormat) {
        #expect(ImageFormat.detect(Fixtures.data("formats/\(file)")) == format)
    }

    @Test func shortAndGarbageDataIsUndefined() {
        #expect(ImageFormat.detect(Data()) == .undefined)
        #expect(ImageFormat.detect(Data([0xFF, 0xD8])) == .undefined)  // JPEG magic cut short
        #expect(ImageFormat.detect(Data([0x89, 0x50, 0x4E, 0x47])) == .undefined)  // PNG signature cut short
        #expect(ImageFormat.detect(Data("RIFF\0\0\0\0WAVE".utf8)) == .undefined)  // RIFF, but audio
        #expect(ImageFormat.detect(Data("BM".utf8)) == .undefined)  // BMP needs a DIB header
        #expect(ImageFormat.detect(Data("hello, world".utf8)) == .undefined)
        var random = SeededRandom(seed: 7)
        let noise = Data((0..<4096).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) })
        #expect(ImageFormat.detect(noise) == .undefined)
    }

    @Test(arguments: [
        ("bmp/irs-smile.ico", ImageFormat.ico), ("bmp/peer-coil_logo_black.ico", .ico), ("bmp/tm-hand.cur", .cur),
        ("bmp/fc-24bipp-256x256.cur", .cur), ("bmp/tm-money-2-(os2).bmp", .bmp), ("bmp/irs-V5_A1_R5_G5_B5.bmp", .bmp),
        // Named .bmp, but an ICO by its bytes (its entry's reserved byte is 0x74): the bytes decide.
        ("bmp/sg-oss-fuzz-testcase-62541.bmp", .ico),
    ])
    func detectsIconsCursorsAndBitmaps(file: String, format: ImageFormat) {
        #expect(ImageFormat.detect(Fixtures.data(file)) == format)
    }

    @Test func iconsNeedAPlausibleDirectory() {
        func icon(type: UInt8 = 1, count: UInt8 = 1, reserved: UInt8 = 0, entryReserved: UInt8 = 0, offset: UInt8 = 22)
            -> Data
        {
            Data([reserved, 0, type, 0, count, 0, 16, 16, 0, entryReserved, 1, 0, 32, 0, 0, 1, 0, 0, offset, 0, 0, 0])
        }
        #expect(ImageFormat.detect(icon()) == .ico)
        #expect(ImageFormat.detect(icon(type: 2)) == .cur)
        #expect(ImageFormat.detect(icon(type: 3)) == .undefined)
        #expect(ImageFormat.detect(icon(count: 0)) == .undefined)  // no entries
        #expect(ImageFormat.detect(icon(reserved: 1)) == .undefined)
        #expect(ImageFormat.detect(icon(entryReserved: 0x9C)) == .ico)  // browsers and Pillow ignore it
        #expect(ImageFormat.detect(icon(offset: 21)) == .undefined)  // data inside the directory
        #expect(ImageFormat.detect(icon(count: 2, offset: 22)) == .undefined)
        #expect(ImageFormat.detect(icon().prefix(21)) == .undefined)  // the first entry cut short
        // An ISO box of 256 bytes whose type is ftyp starts 00 00 01 00 too.
        #expect(ImageFormat.detect(Data([0, 0, 1, 0]) + Data("ftypisom".utf8) + Data(count: 14)) == .undefined)
        #expect(ImageFormat.named("ico") == .ico && ImageFormat.named("cur") == .cur)
    }

    @Test func jpegXLCodestreamAndContainerSignatures() {
        #expect(ImageFormat.detect(Data([0xFF, 0x0A])) == .jxl)
        #expect(ImageFormat.detect(Data([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])) == .jxl)
        #expect(ImageFormat.detect(Data([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87])) == .undefined)
        #expect(ImageFormat.detect(Data([0xFF])) == .undefined)
        #expect(ImageFormat.named("jxl") == .jxl)
    }

    @Test func svgIsFoundByItsRootElementAfterTheProlog() {
        let svg = "<svg xmlns='http://www.w3.org/2000/svg'></svg>\n"
        #expect(ImageFormat.detect(Data(svg.utf8)) == .svg)
        #expect(ImageFormat.detect(Data((svg + String(repeating: " ", count: 200)).utf8)) == .svg)
        #expect(ImageFormat.detect(Data([0xEF, 0xBB, 0xBF]) + Data(svg.utf8)) == .svg)  // UTF-8 BOM
        let prolog = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- Generator: an editor, with <svg> in a comment -->
            <?xml-stylesheet href="a.css"?>
            <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
              <!ENTITY ns "http://www.w3.org/2000/svg>">
            ]>
            \t<svg\nwidth="1" height="1"/>
            """
        #expect(ImageFormat.detect(Data(prolog.utf8)) == .svg)
        // Not SVG: another root element, text before the root, `<svgx`, an unterminated comment, `</svg>` alone.
        for text in [
            "<html><svg></svg></html>", "hello <svg></svg>", "<svgx></svgx>", "<!-- <svg>",
            "<?xml version='1.0'?><root/></svg>", "<svg",
        ] {
            #expect(ImageFormat.detect(Data(text.utf8)) == .undefined, "\(text)")
        }
        // The root must start within the first 16 KB.
        let late = "<!--" + String(repeating: "x", count: 16 * 1024) + "-->" + svg
        #expect(ImageFormat.detect(Data(late.utf8)) == .undefined)
    }

    @Test func pdfNeedsTheFullHeader() {
        #expect(ImageFormat.detect(Data("%PDF-1.7\n".utf8)) == .pdf)
        #expect(ImageFormat.detect(Data("%PDF".utf8)) == .undefined)
        #expect(ImageFormat.detect(Data("%PDX-1.7".utf8)) == .undefined)
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
        #expect(ImageFormat.detect(ftyp("mif1", ["heic"])) == .heif)  // SDWebImage's rule: the major brand decides
        #expect(ImageFormat.detect(ftyp("miaf", ["heic"])) == .heic)
        #expect(ImageFormat.detect(ftyp("mif1", ["miaf"])) == .heif)
        #expect(ImageFormat.detect(ftyp("msf1", [])) == .heif)
        #expect(ImageFormat.detect(ftyp("isom", ["mp41"])) == .undefined)  // an MP4 video
    }

    @Test func namesAndExtensions() {
        #expect(ImageFormat.named("JPG") == .jpeg)
        #expect(ImageFormat.named("jpeg") == .jpeg)
        #expect(ImageFormat.named("tif") == .tiff)
        #expect(ImageFormat.named("avif") == .avif)
        #expect(ImageFormat.named("qoi") == nil)
        let qoi = ImageFormat("qoi", mimeType: "image/qoi", fileExtension: "qoi")
        #expect(qoi == ImageFormat("qoi", mimeType: "other", fileExtension: "q"))  // identity is the identifier
        #expect(qoi != .png)
    }
}

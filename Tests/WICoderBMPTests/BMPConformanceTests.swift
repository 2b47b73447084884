import Foundation
import Testing
import WICore
import WICoderBMP
import WICoderPNG
import WITestSupport

/// Every corpus BMP, ICO and CUR file (Tests/Fixtures/bmp, copied with Tests/Fixtures/make-bmp-fixtures.py) against
/// bmp-reference.tsv: Pillow's RGBA (refdecode.py) exactly, or Pillow's with one of the documented deviations the
/// script applies (rule column); files Pillow refuses decode to a known property or give a typed error.
@Suite struct BMPConformanceTests {
    struct Row: Sendable, CustomStringConvertible {
        var file: String, width: Int, height: Int, sha256: String, rule: String
        var description: String { file }
    }

    static let rows: [Row] = String(decoding: Fixtures.data("bmp-reference.tsv"), as: UTF8.self)
        .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Row(
                file: f[0], width: Int(f[1]) ?? -1, height: Int(f[2]) ?? -1, sha256: f[3],
                rule: f.count > 4 ? f[4] : "refused")
        }
    static let decodable = rows.filter { $0.rule != "refused" }
    static let refused = rows.filter { $0.rule == "refused" }.map(\.file)
    static let coder = BMPCoder(pngCoder: PNGCoder())

    @Test func theTableCoversEveryFixture() {
        #expect(Self.rows.map(\.file) == Fixtures.files(in: "bmp"))
        #expect(Self.decodable.count == 102)
        #expect(Self.refused.count == 23)
        #expect(
            Dictionary(grouping: Self.decodable, by: \.rule).mapValues(\.count)
                == ["pillow": 98, "ico-mask-after-xor": 3, "alpha-mask-16bit": 1])
    }

    @Test(arguments: decodable)
    func matchesTheReference(row: Row) throws {
        let image = try Self.coder.decode(Fixtures.data("bmp/\(row.file)"), options: .init())
        #expect(image.size == PixelSize(width: row.width, height: row.height))
        #expect(image.pixels.format == .rgba8)
        #expect(SHA256.hex(image.pixels.packedBytes()) == row.sha256)
    }

    /// What each file Pillow refuses gives here: the image-rs, bmpsuite and fuzzer files that are valid to a browser
    /// decode (checked against a sibling file's Pillow reference where one shows the same picture); the rest fail
    /// with a typed error.
    @Test(arguments: refused)
    func filesPillowRefuses(file: String) throws {
        let data = Fixtures.data("bmp/\(file)")
        let sixBySix = Self.decodable.first { $0.file == "irs-Info_8_Bit.bmp" }?.sha256
        func decoded() throws -> Image { try Self.coder.decode(data, options: .init()) }
        func channels(_ image: Image, _ index: Int) -> Set<UInt8> {
            Set(image.pixels.packedBytes().enumerated().filter { $0.offset % 4 == index }.map(\.element))
        }
        switch file {
        case "irs-V3_A4_R4_G4_B4.bmp", "irs-V3_A4_R4_G4_B4_Top_Down.bmp", "irs-V3_X4_R4_G4_B4.bmp",
            "irs-V3_X4_R4_G4_B4_Top_Down.bmp", "irs-Bad_clrsUsed.bmp":
            // 4-4-4(-4) bitfields and a colour count of 4278190086: the same picture as Info_8_Bit.
            #expect(SHA256.hex(try decoded().pixels.packedBytes()) == sixBySix)
        case "tm-blauesglas_16_bitmask444.bmp":
            let image = try decoded()
            #expect(image.size == PixelSize(width: 301, height: 331))
            #expect(channels(image, 0).allSatisfy { $0 % 17 == 0 })  // 4-bit channels: v * 255 / 15
            #expect(channels(image, 0).count == 16)
        case "irs-rgb16-880.bmp":
            let image = try decoded()
            #expect(image.size == PixelSize(width: 127, height: 64))
            #expect(channels(image, 2) == [0])  // no blue bits
            #expect(channels(image, 0).count > 100)
        case "irs-rgba16-1924.bmp":
            let image = try decoded()
            #expect(image.size == PixelSize(width: 127, height: 64))
            #expect(channels(image, 3).allSatisfy { $0 % 17 == 0 })  // 4-bit alpha
            #expect(channels(image, 3).count > 2)
        case "irs-rgba32-61754.bmp":
            let image = try decoded()
            #expect(image.size == PixelSize(width: 127, height: 64))
            #expect(image.hasAlpha)
        case "irs-pal2color.bmp":
            let image = try decoded()
            #expect(image.size == PixelSize(width: 127, height: 64))
            #expect(Set(image.pixels.packedBytes().chunks4).count == 4)  // 2 bits per pixel
        case "irs-pal4rlecut.bmp":
            // RLE4 ending early with end-of-bitmap: the pixels never written are transparent, as browsers show.
            let image = try decoded()
            #expect(image.size == PixelSize(width: 127, height: 64))
            #expect(image.flags == [])
            #expect(channels(image, 3) == [0, 255])
        case "irs-rle_overflow.bmp":
            #expect(try decoded().size == PixelSize(width: 2, height: 2))
        case "irs-Bad_unusual_extend_buffer_usage.bmp":
            let image = try decoded()
            #expect(image.size == PixelSize(width: 2554, height: 18803))
            #expect(image.flags == [.incomplete])
        case "irs-crash-981fee302fe0fc543ee48292cc3d6ace7e97e633.ico":
            #expect(try decoded().size == PixelSize(width: 32, height: 32))
        case "irs-Bad_height.bmp", "irs-Bad_width.bmp":
            let error = #expect(throws: ImageError.self) { try decoded() }
            #expect(error?.code == .pixelLimitExceeded)
        case "irs-rgb24rle24.bmp":
            // OS/2 RLE24 (compression 4 with a 64-byte header), which Pillow refuses (no decoder here reads it, so the
            // expected pixels come from the stream's bytes at offset 78, by hand): the bottom row starts with an
            // absolute run of 5 BGR triples (00 00 00 x3, 00 2b 00, 00 00 00; padded to 16 bits), an encoded run of
            // 4 x (33 2b 00), then an absolute run of 10 beginning 33 55 00, 33 55 00, 66 55 00. The stream covers the
            // 127x64 pixels exactly and ends with its end-of-bitmap code: complete.
            let image = try decoded()
            #expect(image.size == PixelSize(width: 127, height: 64) && image.flags == [])
            let bottom = (0..<12).map { image.pixels.color(x: $0, y: 63) }
            let rgb = { (r: UInt8, g: UInt8, b: UInt8) in RGBAColor(red: r, green: g, blue: b, alpha: 255) }
            #expect(
                bottom == [
                    rgb(0, 0, 0), rgb(0, 0, 0), rgb(0, 0, 0), rgb(0, 0x2b, 0), rgb(0, 0, 0),
                    rgb(0, 0x2b, 0x33), rgb(0, 0x2b, 0x33), rgb(0, 0x2b, 0x33), rgb(0, 0x2b, 0x33),
                    rgb(0, 0x55, 0x33), rgb(0, 0x55, 0x33), rgb(0, 0x55, 0x66),
                ])
            #expect(image.pixels.isOpaque)
        default:
            // Bad bit counts (0, 40), RLE with 2 bits, broken PNG entries, a header cut inside its masks.
            let error = #expect(throws: ImageError.self) { try decoded() }
            #expect(error?.code == .badImageData, "\(file)")
        }
    }
}

extension Array where Element == UInt8 {
    /// The pixels as 4-byte groups.
    fileprivate var chunks4: [[UInt8]] { stride(from: 0, to: count, by: 4).map { Array(self[$0..<$0 + 4]) } }
}

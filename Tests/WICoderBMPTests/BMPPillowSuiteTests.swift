import Foundation
import Testing
import WICore
import WICoderBMP
import WITestSupport

/// The BMP and CUR files of Pillow's own test suite (bmpsuite's q/ and b/ files, two of Pillow's) on which
/// refdecode's Pillow frame and ours differ on purpose (decision 0084), against bmp-pillow-reference.tsv: Pillow's
/// frame with the file's rule applied (Tests/Fixtures/make-bmp-pillow-fixtures.py). RGB under alpha 0 is undefined in
/// straight alpha, so both sides compare with it set to 0.
@Suite struct BMPPillowSuiteTests {
    struct Row: Sendable, CustomStringConvertible {
        var file: String, width: Int, height: Int, sha256: String, rule: String, pillowSHA256: String
        var description: String { file }
    }

    static let rows: [Row] = String(decoding: Fixtures.data("bmp-pillow-reference.tsv"), as: UTF8.self)
        .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let f = line.split(separator: "\t").map(String.init)
            return Row(
                file: f[0], width: Int(f[1]) ?? -1, height: Int(f[2]) ?? -1, sha256: f[3], rule: f[4],
                pillowSHA256: f[5])
        }

    @Test func theTableCoversEveryFixture() {
        #expect(Self.rows.map(\.file) == Fixtures.files(in: "bmp-pillow"))
        #expect(
            Dictionary(grouping: Self.rows, by: \.rule).mapValues(\.count)
                == ["rle-skipped-transparent": 3, "all-zero-alpha-opaque": 1, "pillow-cur-reader": 2])
    }

    @Test(arguments: rows)
    func matchesTheBrowserReading(row: Row) throws {
        let image = try BMPCoder().decode(Fixtures.data("bmp-pillow/\(row.file)"), options: .init())
        #expect(image.size == PixelSize(width: row.width, height: row.height))
        #expect(image.frameCount == 1)
        #expect(image.flags == [])
        var bytes = image.pixels.packedBytes()
        for pixel in stride(from: 0, to: bytes.count, by: 4) where bytes[pixel + 3] == 0 {
            bytes.replaceSubrange(pixel..<pixel + 3, with: [0, 0, 0])
        }
        let sha = SHA256.hex(bytes)
        #expect(sha == row.sha256)
        #expect(sha != row.pillowSHA256)  // refdecode's frame: the deviation is real
        switch row.rule {
        case "all-zero-alpha-opaque": #expect(image.pixels.isOpaque)
        case "pillow-cur-reader":
            // 1 x 4: the AND mask after the XOR rows clears the bottom two rows.
            #expect((0..<4).map { image.pixels.color(x: 0, y: $0).alpha } == [255, 255, 0, 0])
            #expect(image.metadata.cursorHotspot == ImageCoding.PixelPoint(x: 0, y: 0))
        default: #expect(!image.pixels.isOpaque)
        }
    }
}

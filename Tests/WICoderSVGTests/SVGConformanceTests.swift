import Foundation
import Testing
import WICore
import WICoderPNG
import WICoderSVG
import WITestSupport

/// Our rendering against rsvg-convert's (Tests/Fixtures/svg-reference.tsv, made by make-svg-reference.py) and
/// against resvg's own reference PNGs.
@Suite struct SVGConformanceTests {
    struct Row: Sendable, CustomStringConvertible {
        var file: String
        var box: PixelSize?
        var size: PixelSize
        var sha256: String
        var description: String { "\(file) \(box.map { "in \($0)" } ?? "natural")" }
    }

    static let rows: [Row] = String(decoding: Fixtures.data("svg-reference.tsv"), as: UTF8.self)
        .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let f = line.split(separator: "\t").map(String.init)
            let box = f[1].split(separator: "x").compactMap { Int($0) }
            return Row(
                file: f[0], box: box.count == 2 ? PixelSize(width: box[0], height: box[1]) : nil,
                size: PixelSize(width: Int(f[2]) ?? 0, height: Int(f[3]) ?? 0), sha256: f[4])
        }

    /// Every fixture renders pixel for pixel as rsvg-convert renders it, at its natural size and in a box: same
    /// library, same 96 dpi, same unpremultiply rounding.
    @Test(arguments: rows)
    func matchesRsvgConvertExactly(row: Row) throws {
        let image = try SVGCoder().decode(Fixtures.data(row.file), options: .init(thumbnailPixelSize: row.box))
        #expect(image.size == row.size)
        #expect(image.pixels.format == .rgba8)
        #expect(SHA256.hex(image.pixels.packedBytes()) == row.sha256)
    }

    @Test func theTableCoversEveryFixture() {
        #expect(Self.rows.count == 92)
        #expect(Set(Self.rows.map(\.file)).count == 68)
    }
}

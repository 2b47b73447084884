import Foundation
import Testing
import WICore
import WICoderGIF
import WITestSupport

/// LZW streams browsers decode: a table that fills without a clear code, no end code, image data cut short.
/// Fixtures from Tests/Fixtures/gif/make-lzw-edge-cases.py. Digests are SHA-256 of the straight RGBA8 pixels.
@Suite struct GIFLZWEdgeCaseTests {
    /// Reference: Pillow (refdecode.py), which decodes both streams completely, as Chrome and Firefox do.
    @Test(arguments: [
        ("gif/lzw-deferred-clear.gif", 160, "b6412a73ac5afa91044edcc81d941abd5b18bca1650148dbd381e41f5ba6b58d"),
        ("gif/lzw-no-end-code.gif", 16, "53ee1d011890a0b53b105163ea9efb07b687e021f5ab4f2e87c29acf5f406e26"),
    ])
    func completeStreamWithoutTheUsualCodes(file: String, side: Int, sha256: String) throws {
        let image = try GIFCoder().decode(Fixtures.data(file), options: .init())
        #expect(image.size == PixelSize(width: side, height: side))
        #expect(image.frameCount == 1)
        #expect(!image.flags.contains(.incomplete))
        #expect(SHA256.hex(image.pixels.packedBytes()) == sha256)
    }

    /// Reference: Pillow's pixels for the 8 rows (row order for the interlaced file: 0, 8, 4, 12, 2, 6, 10, 14) that
    /// decode in full; the other rows are transparent, as Chrome and Firefox show them (Pillow paints them with
    /// palette entry 0 instead, and keeps the 2 pixels of the 9th row: those are dropped here).
    @Test(arguments: [
        (
            "gif/lzw-short-data.gif", "a53b2cc32935ab74d62267c63184452c23af433628751132fd1c012593b491cb",
            [0, 1, 2, 3, 4, 5, 6, 7]
        ),
        (
            "gif/lzw-short-interlaced.gif", "cdc2843f720930b3ffd7da300f98d20fa5c98f0a33e25473921ab7e22d98f035",
            [0, 2, 4, 6, 8, 10, 12, 14]
        ),
    ])
    func shortDataKeepsTheRowsDecoded(file: String, sha256: String, rows: [Int]) throws {
        let image = try GIFCoder().decode(Fixtures.data(file), options: .init())
        #expect(image.size == PixelSize(width: 16, height: 16))
        #expect(image.flags.contains(.incomplete))
        #expect(SHA256.hex(image.pixels.packedBytes()) == sha256)
        for y in 0..<16 {
            #expect((image.pixels.color(x: 15, y: y).alpha == 255) == rows.contains(y), "row \(y)")
        }
    }
}

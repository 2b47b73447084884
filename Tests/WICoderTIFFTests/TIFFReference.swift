import Foundation
import WICore
import WITestSupport

/// One line of Tests/Fixtures/tiff-reference.tsv (made by Tests/Fixtures/make-tiff-reference.sh from refdecode.py):
/// every page of a fixture as Pillow decodes it.
struct TIFFReference: Sendable, CustomStringConvertible {
    struct Page: Sendable {
        var size: PixelSize
        var sha256: String
    }

    var file: String
    /// The first page's Compression tag.
    var compression: Int
    /// Compared by PSNR against reference/FILE.png (JPEG-compressed and CIELab files) rather than exactly.
    var byPSNR: Bool
    /// Pillow applied the Orientation tag (it does for pages it decodes through libtiff).
    var pillowOriented: Bool
    var pages: [Page]
    var description: String { file }

    static let all: [TIFFReference] = String(decoding: Fixtures.data("tiff-reference.tsv"), as: UTF8.self)
        .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let f = line.split(separator: "\t").map(String.init)
            let pages = f[5].split(separator: ",").map { page in
                let parts = page.split(separator: ":")
                let size = parts[0].split(separator: "x").map { Int($0)! }
                return Page(size: PixelSize(width: size[0], height: size[1]), sha256: String(parts[1]))
            }
            return TIFFReference(
                file: f[0], compression: Int(f[1])!, byPSNR: f[2] == "psnr", pillowOriented: f[3] == "1",
                pages: pages)
        }
}

/// The fixtures folder and a file in it.
func tiffData(_ name: String) -> Data { Fixtures.data("tiff/\(name)") }

/// The straight RGBA8 bytes of a buffer.
func rgba8(_ buffer: PixelBuffer) throws -> [UInt8] { try buffer.converted(to: .rgba8).packedBytes() }

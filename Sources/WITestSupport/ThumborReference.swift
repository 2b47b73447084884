import Foundation
import WICore

/// The reference tables made with thumbor 7.8 (Tests/Fixtures/serve-*/make_reference.py): the pattern they
/// filter, and how to read their rows.
public enum ThumborReference {
    /// The pattern the reference scripts filter (24x16 unless told): every channel varies, alpha 128 on a diagonal
    /// lattice, 255 elsewhere.
    public static func pattern(width: Int = 24, height: Int = 16) throws -> PixelBuffer {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                bytes += [
                    UInt8((x * 37 + y * 11) % 256), UInt8((x * x + 3 * y) % 256),
                    UInt8(((255 - x * 9 + y * y) % 256 + 256) % 256), (x + y) % 5 == 0 ? 128 : 255,
                ]
            }
        }
        return try PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes)
    }

    /// An RGBA8 image whose pixel at (x, y) is `pixel(x, y)`'s four channels, each taken modulo 256 as the
    /// reference scripts' Python does (so -1 is 255).
    public static func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> [Int]) throws -> Image {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width { bytes += pixel(x, y).map { UInt8(($0 % 256 + 256) % 256) } }
        }
        return Image(pixels: try PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes))
    }

    /// The tab-separated fields of each line of a reference table, comment lines left out.
    public static func rows(_ text: String) -> [[Substring]] {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t") }
    }

    /// The bytes a reference table writes as hex; throws `.badImageData` for anything else.
    public static func bytes(hex text: Substring) throws -> [UInt8] {
        let hex = Array(text.utf8)
        guard hex.count % 2 == 0 else { throw ImageError(.badImageData, "odd hex length") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        for index in stride(from: 0, to: hex.count, by: 2) {
            guard let byte = UInt8(String(decoding: hex[index..<index + 2], as: UTF8.self), radix: 16) else {
                throw ImageError(.badImageData, "not hex")
            }
            bytes.append(byte)
        }
        return bytes
    }
}

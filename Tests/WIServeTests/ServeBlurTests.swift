import Foundation
import Testing
import WebImage
import WITestSupport
@testable import WIServe

/// `blur(radius[,sigma])` against thumbor 7.8's own blur (its C convolution, run by
/// Tests/Fixtures/serve-blur/make_reference.py): every byte equal, for the default sigma and given ones.
@Suite struct ServeBlurTests {
    static let (width, height) = (24, 16)

    /// The pattern make_reference.py blurs (24x16 unless told).
    static func pattern(width: Int = width, height: Int = height) throws -> PixelBuffer {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                bytes += [UInt8((x * 37 + y * 11) % 256), UInt8((x * x + 3 * y) % 256),
                          UInt8(((255 - x * 9 + y * y) % 256 + 256) % 256), (x + y) % 5 == 0 ? 128 : 255]
            }
        }
        return try PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes)
    }

    /// (radius, sigma, expected bytes) from the reference table.
    static func cases() throws -> [(Int, Double, [UInt8])] {
        let text = try String(contentsOf: Fixtures.url("serve-blur/thumbor-blur-reference.tsv"), encoding: .utf8)
        return try rows(text).map { fields in
            (try #require(Int(fields[0])), try #require(Double(fields[1])), try bytes(hex: fields[2]))
        }
    }

    /// The tab-separated fields of each line of a reference table, comment lines left out.
    static func rows(_ text: String) -> [[Substring]] {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t") }
    }

    /// The bytes a reference table writes as hex.
    static func bytes(hex text: Substring) throws -> [UInt8] {
        let hex = Array(text.utf8)
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: hex.count, by: 2) {
            bytes.append(try #require(UInt8(String(decoding: hex[index..<index + 2], as: UTF8.self), radix: 16)))
        }
        return bytes
    }

    @Test func matchesThumborByteForByte() throws {
        let source = try Self.pattern()
        let cases = try Self.cases()
        #expect(cases.count == 5)
        for (radius, sigma, expected) in cases {
            let output = try ThumborBlur(radius: radius, sigma: sigma).apply(to: source)
            #expect(output.size == source.size)
            let bytes = output.packedBytes()
            #expect(bytes.count == expected.count)
            let differing = zip(bytes, expected).filter { $0 != $1 }.count
            #expect(differing == 0, "blur(\(radius),\(sigma)): \(differing) bytes differ from thumbor's")
        }
    }

    @Test func sigmaChangesTheResultAndZeroMeansTheRadius() throws {
        let source = try Self.pattern()
        let byRadius = try ThumborBlur(radius: 4, sigma: 0).apply(to: source)
        #expect(try ThumborBlur(radius: 4, sigma: 4).apply(to: source) == byRadius)
        #expect(try ThumborBlur(radius: 4, sigma: 1).apply(to: source) != byRadius)
        #expect(ThumborBlur(radius: 2, sigma: 0).kernel.count == 5)
        #expect(abs(ThumborBlur(radius: 2, sigma: 0).kernel.reduce(0, +) - 1) < 1e-12)
    }
}

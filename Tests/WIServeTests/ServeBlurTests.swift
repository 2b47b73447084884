import Foundation
import Testing
import WebImage
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// `blur(radius[,sigma])` against thumbor 7.8's own blur (its C convolution, run by
/// Tests/Fixtures/serve-blur/make_reference.py): every byte equal, for the default sigma and given ones.
@Suite struct ServeBlurTests {
    static let (width, height) = (24, 16)

    /// The pattern make_reference.py blurs (24x16 unless told).
    static func pattern(width: Int = width, height: Int = height) throws -> PixelBuffer {
        try ThumborReference.pattern(width: width, height: height)
    }

    /// (radius, sigma, expected bytes) from the reference table.
    static func cases() throws -> [(Int, Double, [UInt8])] {
        let text = try String(contentsOf: Fixtures.url("serve-blur/thumbor-blur-reference.tsv"), encoding: .utf8)
        return try rows(text).map { fields in
            (try #require(Int(fields[0])), try #require(Double(fields[1])), try bytes(hex: fields[2]))
        }
    }

    static func rows(_ text: String) -> [[Substring]] { ThumborReference.rows(text) }
    static func bytes(hex text: Substring) throws -> [UInt8] { try ThumborReference.bytes(hex: text) }

    @Test func matchesThumborByteForByte() throws {
        let source = try Self.pattern()
        let cases = try Self.cases()
        #expect(cases.count == 5)
        for (radius, sigma, expected) in cases {
            let output = try ConvolutionTransformer.gaussianBlur(radius: radius, sigma: sigma).transform(
                Image(pixels: source)
            ).pixels
            #expect(output.size == source.size)
            let bytes = output.packedBytes()
            #expect(bytes.count == expected.count)
            let differing = zip(bytes, expected).filter { $0 != $1 }.count
            #expect(differing == 0, "blur(\(radius),\(sigma)): \(differing) bytes differ from thumbor's")
        }
    }

    @Test func sigmaChangesTheResultAndZeroMeansTheRadius() throws {
        let source = try Self.pattern()
        func blurred(_ radius: Int, _ sigma: Double) throws -> PixelBuffer {
            try ConvolutionTransformer.gaussianBlur(radius: radius, sigma: sigma).transform(Image(pixels: source))
                .pixels
        }
        let byRadius = try blurred(4, 0)
        #expect(try blurred(4, 4) == byRadius)
        #expect(try blurred(4, 1) != byRadius)
        let kernel = try ConvolutionTransformer.gaussianBlur(radius: 2).passes[0].weights
        #expect(kernel.count == 5)
        #expect(abs(kernel.reduce(0, +) - 1) < 1e-12)
    }
}

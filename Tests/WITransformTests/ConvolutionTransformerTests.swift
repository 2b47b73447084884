import Foundation
import Testing
import WICore
import WITestSupport
import WITransform

/// Convolution with any odd kernel, and thumbor's Gaussian blur as two passes of it: thumbor 7.8's bytes on its
/// reference pattern (Tests/Fixtures/serve-color, serve-blur), keys, argument checks, 16-bit frames kept.
@Suite struct ConvolutionTransformerTests {
    @Test func kernelsMatchThumborByteForByte() throws {
        let text = try String(contentsOf: Fixtures.url("serve-color/thumbor-color-reference.tsv"), encoding: .utf8)
        let source = Image(pixels: try ThumborReference.pattern())
        var checked = 0
        for fields in ThumborReference.rows(text) where fields[0].hasPrefix("convolution(") {
            // convolution(W1;W2;...,COLUMNS[,NORMALIZE])
            let arguments = fields[0].dropFirst("convolution(".count).dropLast().split(separator: ",")
            let weights = try arguments[0].split(separator: ";").map { try #require(Double($0)) }
            let columns = try #require(Int(arguments[1]))
            let normalize = arguments.count < 3 || arguments[2] == "true" || arguments[2] == "1"
            let output = try ConvolutionTransformer(weights: weights, columns: columns, normalize: normalize).transform(
                source)
            #expect(output.pixels.packedBytes() == (try ThumborReference.bytes(hex: fields[1])), "\(fields[0])")
            checked += 1
        }
        #expect(checked == 6)
    }

    @Test func gaussianBlurMatchesThumborByteForByte() throws {
        let text = try String(contentsOf: Fixtures.url("serve-blur/thumbor-blur-reference.tsv"), encoding: .utf8)
        let source = Image(pixels: try ThumborReference.pattern())
        let rows = ThumborReference.rows(text)
        for fields in rows {
            let radius = try #require(Int(fields[0]))
            let sigma = try #require(Double(fields[1]))
            let output = try ConvolutionTransformer.gaussianBlur(radius: radius, sigma: sigma).transform(source)
            #expect(
                output.pixels.packedBytes() == (try ThumborReference.bytes(hex: fields[2])), "blur(\(radius),\(sigma))")
        }
        #expect(rows.count >= 5)
    }

    @Test func keysChecksAndFormats() throws {
        let box = try ConvolutionTransformer(weights: Array(repeating: 1, count: 9), columns: 3)
        #expect(box.key.hasPrefix("Convolution(3x3,"))
        #expect(box.passes[0].weights.allSatisfy { abs($0 - 1.0 / 9) < 1e-15 })
        #expect(try ConvolutionTransformer.gaussianBlur(radius: 4, sigma: 2).key == "Convolution(gaussian,4,2)")
        #expect(try ConvolutionTransformer.gaussianBlur(radius: 4).passes.map(\.columns) == [9, 1])
        let bad: [([Double], Int, String)] = [
            ([1, 2], 2, "kernel must have an odd number of columns and of rows, got 2 weights in rows of 2"),
            (
                [1, 2, 3, 4, 5, 6], 3,
                "kernel must have an odd number of columns and of rows, got 6 weights in rows of 3"
            ),
            ([.infinity], 1, "kernel weights must be finite, got [inf]"),
            ([], 1, "kernel weight count must be in 1...10000, got 0"),
        ]
        for (weights, columns, message) in bad {
            try expectInvalid(message) { try ConvolutionTransformer(weights: weights, columns: columns) }
        }
        // A 16-bit frame stays 16-bit, every level kept by the identity kernel (the box's 1/9 sums truncate).
        let flat = try PixelBuffer(
            width: 4, height: 4, format: .rgba16,
            bytes: Array(repeating: [0x34, 0x12], count: 64).flatMap { $0 })
        let identity = try ConvolutionTransformer(weights: [0, 0, 0, 0, 1, 0, 0, 0, 0], columns: 3)
        let output = try identity.transform(Image(pixels: flat)).pixels
        #expect(output.format == .rgba16 && output.packedBytes() == flat.packedBytes())
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import WICore
import WITestSupport
import WITransform

/// The wavelet sharpen and seeded noise: thumbor 7.8's bytes on its reference pattern (Tests/Fixtures/serve-color),
/// keys, argument checks, 16-bit frames kept, and the C library's own generator as the noise's reference.
@Suite struct SharpenAndNoiseTransformerTests {
    /// The arguments inside `name(...)`.
    static func arguments(_ filter: Substring, _ name: String) -> [Substring] {
        filter.dropFirst(name.count + 1).dropLast().split(separator: ",")
    }

    @Test func matchThumborByteForByte() throws {
        let text = try String(contentsOf: Fixtures.url("serve-color/thumbor-color-reference.tsv"), encoding: .utf8)
        var checked = 0
        for fields in ThumborReference.rows(text) {
            let filter = fields[0]
            let output: PixelBuffer
            if filter.hasPrefix("sharpen(") {
                let arguments = Self.arguments(filter, "sharpen")
                let sharpen = try WaveletSharpenTransformer(
                    amount: try #require(Double(arguments[0])),
                    radius: try #require(Double(arguments[1])),
                    luminanceOnly: arguments[2] == "true")
                output = try sharpen.transform(Image(pixels: try ThumborReference.pattern(width: 48, height: 40)))
                    .pixels
            } else if filter.hasPrefix("noise(") {
                let arguments = Self.arguments(filter, "noise")
                let noise = try NoiseTransformer(
                    amount: try #require(Int(arguments[0])), seed: try #require(UInt32(arguments[1])))
                output = try noise.transform(Image(pixels: try ThumborReference.pattern())).pixels
            } else {
                continue
            }
            #expect(output.packedBytes() == (try ThumborReference.bytes(hex: fields[1])), "\(filter)")
            checked += 1
        }
        #expect(checked == 5)
    }

    @Test func keysChecksAndFormats() throws {
        #expect(
            try WaveletSharpenTransformer(amount: 2, radius: 1, luminanceOnly: false).key == "WaveletSharpen(2,1,false)"
        )
        #expect(try NoiseTransformer(amount: 30, seed: 7).key == "Noise(30,7)")
        try expectInvalid("sharpen amount must be a finite number in -100...100, got nan") {
            try WaveletSharpenTransformer(amount: .nan, radius: 1, luminanceOnly: true)
        }
        try expectInvalid("sharpen radius must be a finite number in 0...100, got 101.0") {
            try WaveletSharpenTransformer(amount: 1, radius: 101, luminanceOnly: true)
        }
        try expectInvalid("noise amount must be in 0...2147483647, got 2147483648") {
            try NoiseTransformer(amount: 1 << 31, seed: 1)
        }
        try expectInvalid("noise seed must be at least 1, got 0") { try NoiseTransformer(amount: 10, seed: 0) }
        let wide = try ThumborReference.pattern().converted(to: .rgba16)
        #expect(try NoiseTransformer(amount: 20, seed: 3).transform(Image(pixels: wide)).pixels.format == .rgba16)
        #expect(
            try WaveletSharpenTransformer(amount: 1, radius: 0, luminanceOnly: false)
                .transform(Image(pixels: wide)).pixels.format == .rgba16)
        // The same seed, the same noise; no amount, no change.
        let source = Image(pixels: try ThumborReference.pattern())
        let once = try NoiseTransformer(amount: 40, seed: 9).transform(source).pixels
        #expect(try NoiseTransformer(amount: 40, seed: 9).transform(source).pixels == once)
        #expect(try NoiseTransformer(amount: 0, seed: 9).transform(source).pixels == source.pixels)
    }

    @Test func glibcRandomMatchesTheCLibrary() {
        // The C library itself as the reference: srandom(seed), then random(), 1,000 values for each seed.
        for seed: UInt32 in [1, 7, 123_456, 2_147_483_647] {
            srandom(seed)
            let expected = (0..<1_000).map { _ in UInt32(random()) }
            var ours = GlibcRandom(seed: seed)
            #expect((0..<1_000).map { _ in ours.next() } == expected, "seed \(seed)")
        }
    }
}

/// The factories read as Nuke's: `.pipeline([...])` of `.sharpen(...)`, `.gaussianBlur(...)` and the others, each
/// the same transformer its initializer makes.
@Suite struct TransformerFactoryTests {
    @Test func factoriesMakeTheTransformersTheirInitializersMake() throws {
        let pipeline: any ImageTransformer = .pipeline([
            try .brightness(10), .grayscale, try .saturation(0.5), try .sharpen(amount: 2, radius: 1),
            try .convolution(weights: [0, 0, 0, 0, 1, 0, 0, 0, 0], columns: 3), try .gaussianBlur(radius: 2),
            try .noise(amount: 10, seed: 3), try .trim(corner: .bottomRight, tolerance: 4),
        ])
        let expected: [any ImageTransformer] = [
            try ToneTablesTransformer.brightness(10), GrayscaleTransformer(), try SaturationTransformer(change: 0.5),
            try WaveletSharpenTransformer(amount: 2, radius: 1, luminanceOnly: false),
            try ConvolutionTransformer(weights: [0, 0, 0, 0, 1, 0, 0, 0, 0], columns: 3),
            try ConvolutionTransformer.gaussianBlur(radius: 2), try NoiseTransformer(amount: 10, seed: 3),
            try TrimTransformer(corner: .bottomRight, tolerance: 4),
        ]
        #expect(pipeline.key == expected.map(\.key).joined(separator: "-"))
        let source = Image(pixels: try ThumborReference.pattern())
        #expect(try pipeline.transform(source).pixels == (try PipelineTransformer(expected).transform(source).pixels))
    }
}

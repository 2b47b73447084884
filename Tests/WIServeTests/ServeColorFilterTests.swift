import Foundation
import Testing
import WebImage
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// `brightness`, `contrast`, `rgb`, `colorize`, `curve`, `noise` (seeded), `saturation`, `grayscale`, `equalize`,
/// `sharpen` and `convolution` against thumbor 7.8's own (its extension modules and its Pillow engine, run by
/// Tests/Fixtures/serve-color/make_reference.py on ServeBlurTests' pattern): every byte equal.
@Suite struct ServeColorFilterTests {
    /// (filter as written in a URL, expected RGBA8 bytes) from the reference table.
    static func cases() throws -> [(String, [UInt8])] {
        let text = try String(contentsOf: Fixtures.url("serve-color/thumbor-color-reference.tsv"), encoding: .utf8)
        return try ServeBlurTests.rows(text).map { fields in
            (String(fields[0]), try ServeBlurTests.bytes(hex: fields[1]))
        }
    }

    /// The WITransform transformer of the colour filter `text`.
    static func filter(_ text: String) throws -> any ImageTransformer {
        let parsed = try ThumborFilters.parseList(Substring(text), strict: true)
        let first = try #require(parsed.first)
        return try #require(try first.transformer())
    }

    @Test func matchesThumborByteForByte() throws {
        let cases = try Self.cases()
        #expect(cases.count == 36)
        for (text, expected) in cases {
            let output: PixelBuffer
            let source: PixelBuffer
            let filter = try ThumborFilters.parseList(Substring(text), strict: true).first
            if let sharpen = filter as? ThumborFilters.Sharpen {
                source = try ServeBlurTests.pattern(width: 48, height: 40)
                output = try WaveletSharpenTransformer(
                    amount: sharpen.amount, radius: sharpen.radius,
                    luminanceOnly: sharpen.luminanceOnly
                ).transform(Image(pixels: source)).pixels
            } else if let noise = filter as? ThumborFilters.Noise {
                source = try ServeBlurTests.pattern()
                output = try NoiseTransformer(amount: noise.amount, seed: UInt32(noise.seed)).transform(
                    Image(pixels: source)
                ).pixels
            } else if let kernel = filter as? ThumborFilters.Convolution {
                source = try ServeBlurTests.pattern()
                let convolution = try ConvolutionTransformer(
                    weights: kernel.weights, columns: kernel.columns,
                    normalize: kernel.normalize)
                output = try convolution.transform(Image(pixels: source)).pixels
            } else {
                source = try ServeBlurTests.pattern()
                output = try Self.filter(text).transform(Image(pixels: source)).pixels
            }
            #expect(output.size == source.size && output.format == .rgba8)
            let bytes = output.packedBytes()
            #expect(bytes.count == expected.count)
            let differing = zip(bytes, expected).filter { $0 != $1 }.count
            #expect(differing == 0, "\(text): \(differing) bytes differ from thumbor's")
        }
    }

    @Test func alphaIsLeftAloneAndNeutralArgumentsChangeNothing() throws {
        let source = try ServeBlurTests.pattern()
        let bytes = source.packedBytes()
        for text in ["brightness(0)", "contrast(0)", "rgb(0,0,0)", "saturation(1)", "colorize(0,0,0,ffffff)"] {
            #expect(try Self.filter(text).transform(Image(pixels: source)).pixels.packedBytes() == bytes, "\(text)")
        }
        let gray = try Self.filter("grayscale()").transform(Image(pixels: source)).pixels.packedBytes()
        for index in stride(from: 0, to: bytes.count, by: 4) {
            #expect(gray[index + 3] == bytes[index + 3])
            #expect(gray[index] == gray[index + 1] && gray[index + 1] == gray[index + 2])
        }
    }

    @Test func everyFrameOfAnAnimationIsFiltered() throws {
        let red = try PixelBuffer(width: 2, height: 1, format: .rgba8, bytes: [200, 0, 0, 255, 200, 0, 0, 255])
        let blue = try PixelBuffer(width: 2, height: 1, format: .rgba8, bytes: [0, 0, 200, 255, 0, 0, 200, 255])
        let animation = Image(
            frames: [ImageFrame(pixels: red, duration: 0.1), ImageFrame(pixels: blue, duration: 0.2)],
            format: .gif)
        let output = try Self.filter("grayscale()").transform(animation)
        #expect(output.frameCount == 2)
        // (200 x 19595 + 0x8000) >> 16 = 60; (200 x 7471 + 0x8000) >> 16 = 23.
        #expect(try output.frame(at: 0).pixels.packedBytes() == [60, 60, 60, 255, 60, 60, 60, 255])
        #expect(try output.frame(at: 1).pixels.packedBytes() == [23, 23, 23, 255, 23, 23, 23, 255])
        #expect(try output.frame(at: 1).duration == 0.2)
    }

    /// The filter table: pixel filters make a step (none when they change nothing), the others make none.
    @Test func onlyPixelFiltersMakeAStep() throws {
        typealias F = ThumborFilters
        #expect(try F.Blur(radius: 0, sigma: 0).transformer() == nil)
        #expect(
            try F.Blur(radius: 2, sigma: 0).transformer()?.key
                == (try ConvolutionTransformer.gaussianBlur(radius: 2)).key)
        #expect(try F.MaxAge(5).transformer() == nil && F.MaxAge(5).role == .answer)
        #expect(try F.Quality(5).transformer() == nil && !F.Quality(5).role.changesPixels)
        #expect(try F.Grayscale().transformer()?.key == "Grayscale()")
        #expect(try F.BackgroundColor(.white).transformer()?.key == "Canvas(frame,#ffffffff,composite)")
        #expect(F.Upscale().role == .geometry && F.Upscale().role.changesPixels)
        let missing = #expect(throws: ImageError.self) {
            try F.Watermark(try ThumborWatermark(arguments: ["a.png", "0", "0", "0"])).transformer()
        }
        #expect(missing?.message == "the watermark http://a.png was not loaded")
    }
}

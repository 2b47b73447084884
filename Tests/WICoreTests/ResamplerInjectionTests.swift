import Foundation
import Testing
import WICore

/// Resizes to a solid image whose red component is `red`: which resampler ran shows in the pixels.
private struct MarkerResampler: ImageResampler, Hashable {
    let red: UInt8

    func resample(_ buffer: PixelBuffer, to size: PixelSize) throws(ImageError) -> PixelBuffer {
        try PixelBuffer(
            width: size.width, height: size.height, format: buffer.format,
            bytes: Array([red, 0, 0, 255].repeated(size.area)))
    }
}

/// A resampler that is not `Hashable`: compared by its type alone.
private struct PlainResampler: ImageResampler {
    func resample(_ buffer: PixelBuffer, to size: PixelSize) throws(ImageError) -> PixelBuffer {
        try ImageCoding.AreaAverageResampler().resample(buffer, to: size)
    }
}

/// A class resampler: compared by instance.
private final class SharedResampler: ImageResampler {
    func resample(_ buffer: PixelBuffer, to size: PixelSize) throws(ImageError) -> PixelBuffer {
        try ImageCoding.AreaAverageResampler().resample(buffer, to: size)
    }
}

/// Decodes any data starting with "PROBE" to a 4x4 white image finished by the options (so a thumbnail goes through
/// the options' resampler), one-shot, incrementally and frame by frame; encodes to the first red byte after
/// resampling to `maxPixelSize`.
private final class ProbeCoder: ProgressiveImageCoder, AnimatedImageCoder, Sendable {
    static let format = ImageFormat("probe", mimeType: "image/x-probe", fileExtension: "probe")

    func canDecode(_ data: Data) -> Bool { data.starts(with: Data("PROBE".utf8)) }

    static func pixels(_ options: DecodeOptions) throws(ImageError) -> PixelBuffer {
        let white = try PixelBuffer(
            width: 4, height: 4, format: .rgba8, bytes: Array([255, 255, 255, 255].repeated(16)))
        return try options.finish(white, orientation: .up).pixels
    }

    func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        Image(pixels: try Self.pixels(options), format: Self.format, decodeOptions: options)
    }

    func canEncode(to format: ImageFormat) -> Bool { format == Self.format }

    func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        let size = options.maxPixelSize.map { ImageCoding.Geometry.scaledSize(of: image.size, toFit: $0) } ?? image.size
        return Data([try options.effectiveResampler.resample(image.pixels, to: size).color(x: 0, y: 0).red])
    }

    func makeIncrementalDecoder(header: Data, options: DecodeOptions) -> (any IncrementalImageDecoder)? {
        Incremental(coder: self, options: options)
    }

    func makeAnimatedDecoder(_ data: Data, options: DecodeOptions) throws(ImageError) -> any AnimatedImageDecoder {
        Animated(options: options)
    }

    final class Incremental: IncrementalImageDecoder {
        let coder: ProbeCoder
        let options: DecodeOptions
        init(coder: ProbeCoder, options: DecodeOptions) { (self.coder, self.options) = (coder, options) }
        func append(_ data: Data) throws(ImageError) -> Bool { true }
        func currentImage() -> Image? { try? coder.decode(Data(), options: options) }
        func finish() throws(ImageError) -> Image { try coder.decode(Data(), options: options) }
    }

    struct Animated: AnimatedImageDecoder {
        let options: DecodeOptions
        var canvasSize: PixelSize {
            options.targetSize(for: PixelSize(width: 4, height: 4)) ?? PixelSize(width: 4, height: 4)
        }
        var frameCount: Int { 2 }
        var loopCount: Int { 0 }
        func duration(at index: Int) -> Double { 0.1 }
        func frame(at index: Int) throws(ImageError) -> PixelBuffer { try ProbeCoder.pixels(options) }
    }
}

extension Array {
    fileprivate func repeated(_ count: Int) -> [Element] { (0..<count).flatMap { _ in self } }
}

@Suite struct ResamplerInjectionTests {
    private let probe = Data("PROBE".utf8)
    private let thumbnail = DecodeOptions(thumbnailPixelSize: PixelSize(width: 2, height: 2))

    @Test func optionsDifferingOnlyInTheResamplerAreNotEqual() {
        #expect(DecodeOptions() == DecodeOptions())
        #expect(DecodeOptions().hashValue == DecodeOptions().hashValue)
        #expect(DecodeOptions(resampler: MarkerResampler(red: 1)) == DecodeOptions(resampler: MarkerResampler(red: 1)))
        #expect(
            DecodeOptions(resampler: MarkerResampler(red: 1)).hashValue
                == DecodeOptions(resampler: MarkerResampler(red: 1)).hashValue)
        // Unset is its own resampler (a coders manager fills it in), so it differs from an explicit area average.
        #expect(DecodeOptions() != DecodeOptions(resampler: ImageCoding.AreaAverageResampler()))
        #expect(
            DecodeOptions(resampler: ImageCoding.AreaAverageResampler()) != DecodeOptions(resampler: PlainResampler()))
        #expect(DecodeOptions(resampler: MarkerResampler(red: 1)) != DecodeOptions(resampler: MarkerResampler(red: 2)))
        #expect(DecodeOptions(resampler: PlainResampler()) == DecodeOptions(resampler: PlainResampler()))
        let shared = SharedResampler()
        #expect(DecodeOptions(resampler: shared) == DecodeOptions(resampler: shared))
        #expect(DecodeOptions(resampler: shared) != DecodeOptions(resampler: SharedResampler()))
        // As dictionary keys (the pipeline's decode keys): four distinct options, one of them met twice.
        let keys: Set<DecodeOptions> = [
            DecodeOptions(), DecodeOptions(resampler: MarkerResampler(red: 1)),
            DecodeOptions(resampler: MarkerResampler(red: 2)),
            DecodeOptions(resampler: ImageCoding.AreaAverageResampler()), DecodeOptions(),
        ]
        #expect(keys.count == 4)
        // Every other field still counts.
        #expect(DecodeOptions(pixelLimit: 10) != DecodeOptions())
        #expect(DecodeOptions(thumbnailPixelSize: PixelSize(width: 1, height: 1)) != DecodeOptions())

        #expect(EncodeOptions() == EncodeOptions())
        #expect(EncodeOptions().hashValue == EncodeOptions().hashValue)
        #expect(EncodeOptions() != EncodeOptions(resampler: ImageCoding.AreaAverageResampler()))
        #expect(EncodeOptions(resampler: MarkerResampler(red: 1)) != EncodeOptions(resampler: MarkerResampler(red: 2)))
        #expect(EncodeOptions(resampler: MarkerResampler(red: 3)) == EncodeOptions(resampler: MarkerResampler(red: 3)))
        #expect(EncodeOptions(quality: 0.5) != EncodeOptions())
    }

    @Test func unsetMeansTheAreaAverage() throws {
        #expect(DecodeOptions().effectiveResampler is ImageCoding.AreaAverageResampler)
        #expect(EncodeOptions().effectiveResampler is ImageCoding.AreaAverageResampler)
        #expect((DecodeOptions(resampler: MarkerResampler(red: 4)).effectiveResampler as? MarkerResampler)?.red == 4)
        // finish() resamples with it: white stays white under the area average, the marker paints red 4.
        #expect(try ProbeCoder.pixels(thumbnail).color(x: 0, y: 0).red == 255)
        var marked = thumbnail
        marked.resampler = MarkerResampler(red: 4)
        #expect(try ProbeCoder.pixels(marked).color(x: 1, y: 1).red == 4)
    }

    @Test func aManagerFillsItsResamplerIntoDecodesThatNameNone() throws {
        let injected = ImageCodersManager(coders: [ProbeCoder()], resampler: MarkerResampler(red: 7))
        let image = try injected.decode(probe, options: thumbnail)
        #expect(image.size == PixelSize(width: 2, height: 2))
        #expect(image.pixels.color(x: 0, y: 0).red == 7)
        // The image records the caller's options, so it matches the request that asked for it.
        #expect(image.decodeOptions == thumbnail)
        // Options naming a resampler keep it; a manager without one leaves options alone.
        var own = thumbnail
        own.resampler = MarkerResampler(red: 9)
        let kept = try injected.decode(probe, options: own)
        #expect(kept.pixels.color(x: 0, y: 0).red == 9)
        #expect(kept.decodeOptions == own)
        let plain = ImageCodersManager(coders: [ProbeCoder()])
        #expect(try plain.decode(probe, options: thumbnail).pixels.color(x: 0, y: 0).red == 255)
        #expect(try plain.decode(probe, options: own).pixels.color(x: 0, y: 0).red == 9)
        // A manager inside a manager: the outer one's resampler wins for options that name none.
        let nested = ImageCodersManager(
            coders: [ImageCodersManager(coders: [ProbeCoder()], resampler: MarkerResampler(red: 5))],
            resampler: MarkerResampler(red: 6))
        let inner = try nested.decode(probe, options: thumbnail)
        #expect(inner.pixels.color(x: 0, y: 0).red == 6)
        #expect(inner.decodeOptions == thumbnail)
    }

    @Test func aManagerFillsItsResamplerIntoEncodes() throws {
        let image = Image(pixels: try ProbeCoder.pixels(DecodeOptions()))
        let small = EncodeOptions(maxPixelSize: PixelSize(width: 2, height: 2))
        let injected = ImageCodersManager(coders: [ProbeCoder()], resampler: MarkerResampler(red: 11))
        #expect(try injected.encode(image, as: ProbeCoder.format, options: small) == Data([11]))
        var own = small
        own.resampler = MarkerResampler(red: 12)
        #expect(try injected.encode(image, as: ProbeCoder.format, options: own) == Data([12]))
        #expect(
            try ImageCodersManager(coders: [ProbeCoder()]).encode(image, as: ProbeCoder.format, options: small)
                == Data([255]))
    }

    @Test func aManagerFillsItsResamplerIntoIncrementalAndAnimatedDecoders() throws {
        let injected = ImageCodersManager(coders: [ProbeCoder()], resampler: MarkerResampler(red: 13))
        let incremental = try #require(injected.makeIncrementalDecoder(header: probe, options: thumbnail))
        #expect(try incremental.append(probe))
        let partial = try #require(incremental.currentImage())
        #expect(partial.pixels.color(x: 0, y: 0).red == 13)
        #expect(partial.decodeOptions == thumbnail)
        let final = try incremental.finish()
        #expect(final.pixels.color(x: 0, y: 0).red == 13)
        #expect(final.decodeOptions == thumbnail)
        let plain = try #require(
            ImageCodersManager(coders: [ProbeCoder()]).makeIncrementalDecoder(
                header: probe,
                options: thumbnail))
        #expect(try plain.finish().pixels.color(x: 0, y: 0).red == 255)

        let animated = try injected.makeAnimatedDecoder(probe, options: thumbnail)
        #expect(animated.canvasSize == PixelSize(width: 2, height: 2))
        #expect(try animated.frame(at: 1).color(x: 0, y: 0).red == 13)
        let plainAnimated = try ImageCodersManager(coders: [ProbeCoder()]).makeAnimatedDecoder(
            probe, options: thumbnail)
        #expect(try plainAnimated.frame(at: 1).color(x: 0, y: 0).red == 255)
    }
}

import Foundation
import Testing
import WICore
import WICoderWebP
import WITestSupport

@Suite struct WebPEncodeTests {
    private func decode(_ data: Data, _ options: DecodeOptions = .init()) throws -> Image {
        try WebPCoder().decode(data, options: options)
    }

    private func fixture(_ file: String) throws -> Image { try decode(WebPReference.named(file).data) }

    /// The top-level chunk names of a file (and those inside ANMF frames when asked).
    private func chunkNames(_ data: Data, insideFrames: Bool = false) -> [String] {
        WebPTestSupport.chunks(data, insideFrames: insideFrames).map(\.fourCC)
    }

    @Test func losslessRoundTripsExactly() throws {
        for file in ["lossless4.webp", "color_index.webp", "lossy_q0_f100.webp"] {
            let source = try fixture(file)
            let data = try WebPCoder().encode(source, as: .webp, options: .init(lossless: true))
            #expect(chunkNames(data) == ["VP8L"])
            #expect(try decode(data).pixels == source.pixels, "\(file)")
        }
    }

    @Test func exactKeepsColourUnderTransparentPixels() throws {
        // 16x16: the left half fully transparent with a colour gradient under it, the right half visible.
        var bytes: [UInt8] = []
        for y in 0..<16 {
            for x in 0..<16 {
                let alpha: UInt8 = x < 8 ? 0 : 200
                bytes += [UInt8(x * 16), UInt8(y * 16), UInt8(255 - x * 8), alpha]
            }
        }
        let image = Image(pixels: try PixelBuffer(width: 16, height: 16, format: .rgba8, bytes: bytes))
        let distinctHiddenColours = { (pixels: PixelBuffer) -> Int in
            Set((0..<16).flatMap { y in (0..<8).map { x in pixels.color(x: x, y: y).hexString } }).count
        }
        // Lossless is exact by default: the same bytes come back.
        #expect(
            try decode(try WebPCoder().encode(image, as: .webp, options: .init(lossless: true))).pixels == image.pixels)
        let cleaned = try decode(
            try WebPCoder(configuration: .init(exactColorUnderAlpha: false))
                .encode(image, as: .webp, options: .init(lossless: true)))
        #expect(cleaned.pixels != image.pixels)
        #expect(cleaned.pixels.color(x: 12, y: 3) == image.pixels.color(x: 12, y: 3))  // visible pixels kept
        #expect(distinctHiddenColours(cleaned.pixels) == 1)
        // Lossy: libwebp flattens hidden colour unless asked to keep it.
        let lossyFlat = try decode(try WebPCoder().encode(image, as: .webp, options: .init(quality: 0.9)))
        let lossyExact = try decode(
            try WebPCoder(configuration: .init(exactColorUnderAlpha: true))
                .encode(image, as: .webp, options: .init(quality: 0.9)))
        #expect(distinctHiddenColours(lossyFlat.pixels) < distinctHiddenColours(lossyExact.pixels))
        #expect(distinctHiddenColours(lossyExact.pixels) > 32)
    }

    @Test func lossyQualityTradesSizeForFidelity() throws {
        let source = try fixture("vp80-00-comprehensive-007.webp")  // 176x144
        let low = try WebPCoder().encode(source, as: .webp, options: .init(quality: 0.2))
        let high = try WebPCoder().encode(source, as: .webp, options: .init(quality: 0.95))
        #expect(chunkNames(low) == ["VP8 "])
        #expect(low.count < high.count)
        let psnrLow = WebPTestSupport.psnr(try decode(low).pixels, source.pixels)
        let psnrHigh = WebPTestSupport.psnr(try decode(high).pixels, source.pixels)
        #expect(psnrHigh > psnrLow)
        #expect(psnrHigh > 35)
        // Method changes the effort, not the meaning: both decode to the same size.
        let fast = try WebPCoder(configuration: .init(method: 0)).encode(
            source, as: .webp, options: .init(quality: 0.8))
        let slow = try WebPCoder(configuration: .init(method: 6)).encode(
            source, as: .webp, options: .init(quality: 0.8))
        #expect(fast != slow)
        #expect(try decode(fast).size == source.size && decode(slow).size == source.size)
    }

    @Test func nearLosslessIsSmallerThanLosslessAndClose() throws {
        let source = try fixture("test-nostrong.webp")  // 128x128 photo-like
        let lossless = try WebPCoder().encode(source, as: .webp, options: .init(lossless: true))
        let near = try WebPCoder(configuration: .init(nearLossless: 40)).encode(
            source, as: .webp, options: .init(lossless: true))
        #expect(chunkNames(near) == ["VP8L"])
        #expect(near.count < lossless.count)
        let decoded = try decode(near).pixels
        #expect(decoded != source.pixels)
        #expect(WebPTestSupport.psnr(decoded, source.pixels) > 35)
    }

    @Test func alphaQualityShrinksTheAlphaPlane() throws {
        let source = try fixture("gallery2-4-lossy-alpha.webp")
        let full = try WebPCoder().encode(source, as: .webp, options: .init(quality: 0.8))
        let reduced = try WebPCoder(configuration: .init(alphaQuality: 10)).encode(
            source, as: .webp, options: .init(quality: 0.8))
        #expect(chunkNames(full) == ["VP8X", "ALPH", "VP8 "])
        #expect(reduced.count < full.count)
        let alpha = { (data: Data) throws -> Int in
            WebPTestSupport.chunks(data).first { $0.fourCC == "ALPH" }!.payload.count
        }
        #expect(try alpha(reduced) < alpha(full))
    }

    @Test func premultipliedAndSixteenBitInputIsWrittenStraight() throws {
        let straight = try fixture("lossy_alpha4.webp")
        let premultiplied = Image(pixels: try straight.pixels.converted(to: .premultipliedRGBA8))
        let decoded = try decode(try WebPCoder().encode(premultiplied, as: .webp, options: .init(lossless: true)))
        #expect(decoded.pixels == (try premultiplied.pixels.converted(to: .rgba8)))
        let wide = Image(pixels: try straight.pixels.converted(to: .rgba16))
        #expect(
            try decode(try WebPCoder().encode(wide, as: .webp, options: .init(lossless: true))).pixels
                == straight.pixels)
    }

    @Test func maxPixelSizeScalesDown() throws {
        let source = try fixture("lossless4.webp")  // 256x256
        let data = try WebPCoder().encode(
            source, as: .webp, options: .init(maxPixelSize: .init(width: 100, height: 50)))
        #expect(try decode(data).size == PixelSize(width: 50, height: 50))
    }

    @Test func maxFileSizeSearchesTheQuality() throws {
        let source = try fixture("vp80-00-comprehensive-007.webp")
        let coder = WebPCoder()
        let smallest = try coder.encode(source, as: .webp, options: .init(quality: 0))
        let largest = try coder.encode(source, as: .webp, options: .init(quality: 0.9))
        #expect(smallest.count < largest.count)
        let limit = (smallest.count + largest.count) / 2
        let fitted = try coder.encode(source, as: .webp, options: .init(quality: 0.9, maxFileSize: limit))
        #expect(fitted.count <= limit)
        #expect(fitted.count >= smallest.count)
        // One quality step higher no longer fits: the search found the best quality that does.
        #expect(fitted.count > (smallest.count + limit) / 2)
        // Already small enough: the requested quality itself.
        #expect(
            try coder.encode(source, as: .webp, options: .init(quality: 0.9, maxFileSize: largest.count)) == largest)
        // Impossible: the smallest file.
        #expect(try coder.encode(source, as: .webp, options: .init(quality: 0.9, maxFileSize: 10)) == smallest)
    }

    @Test func metadataIsWrittenWithTheOrientationItsPixelsNeed() throws {
        let upright = try fixture("made-metadata-orientation6.webp")
        let data = try WebPCoder().encode(upright, as: .webp, options: .init(lossless: true))
        #expect(chunkNames(data) == ["VP8X", "ICCP", "VP8L", "EXIF", "XMP "])
        let again = try decode(data, .init(applyOrientation: false))
        #expect(again.orientation == .up)  // not turned a second time
        #expect(again.metadata.iccProfile == upright.metadata.iccProfile)
        #expect(again.metadata.xmp == upright.metadata.xmp)
        #expect(again.pixels == upright.pixels)
        // Kept raw, the pixels still need the turn, and the file says so.
        let raw = try decode(
            WebPReference.named("made-metadata-orientation6.webp").data, .init(applyOrientation: false))
        let rawAgain = try decode(try WebPCoder().encode(raw, as: .webp, options: .init(lossless: true)))
        #expect(rawAgain.pixels == upright.pixels)
    }

    @Test func animatedRoundTrip() throws {
        let source = try fixture("made-blend-dispose.webp")  // 4 frames, loop count 3
        let coder = WebPCoder()
        let data = try coder.encode(source, as: .webp, options: .init(lossless: true))
        #expect(chunkNames(data).prefix(2) == ["VP8X", "ANIM"])
        let decoded = try decode(data)
        #expect(decoded.frameCount == 4)
        #expect(decoded.loopCount == 3)
        #expect(decoded.durations == source.durations)
        #expect(try decoded.frames.map(\.pixels) == source.frames.map(\.pixels))
        // First frame only gives a still.
        let still = try coder.encode(source, as: .webp, options: .init(lossless: true, firstFrameOnly: true))
        #expect(chunkNames(still) == ["VP8X", "VP8L"] || chunkNames(still) == ["VP8L"])
        #expect(try decode(still).pixels == source.frames[0].pixels)
        // Lossy animations keep frames, loop count and durations too.
        let lossy = try decode(
            try WebPCoder().encode(
                try fixture("animated-random-lossy.webp"), as: .webp,
                options: .init(quality: 0.8)))
        #expect(lossy.frameCount == 4)
        #expect(lossy.loopCount == 0)
        #expect(lossy.durations == [0.15, 0.15, 0.15, 0.15])
        // Scaled into a box, every frame.
        let small = try decode(
            try coder.encode(source, as: .webp, options: .init(maxPixelSize: .init(width: 24, height: 24))))
        #expect(small.frameCount == 4)
        #expect(small.size == PixelSize(width: 24, height: 20))
    }

    @Test func maxFileSizeAppliesToAnimations() throws {
        let source = try fixture("animated-random-lossy.webp")  // 4 frames of 99x87
        let coder = WebPCoder(configuration: .init(method: 0))
        let smallest = try coder.encode(source, as: .webp, options: .init(quality: 0))
        let largest = try coder.encode(source, as: .webp, options: .init(quality: 0.9))
        let limit = (smallest.count + largest.count) / 2
        let fitted = try coder.encode(source, as: .webp, options: .init(quality: 0.9, maxFileSize: limit))
        #expect(fitted.count <= limit && fitted.count >= smallest.count)
        #expect(try decode(fitted).frameCount == 4)
    }

    @Test func keyframeIntervalAndMixedFrames() throws {
        let source = try fixture("animated-blend.webp")  // 12 frames of 400x400 that change in small regions
        let canvas = WebPBuilder.le(399, 3) + WebPBuilder.le(399, 3)
        let fullFrames = { (data: Data) -> Int in
            WebPTestSupport.chunks(data).filter { $0.fourCC == "ANMF" && Array($0.payload[6..<12]) == canvas }.count
        }
        let options = EncodeOptions(quality: 0.5)
        let everyFrame = try WebPCoder(configuration: .init(method: 0, keyframeInterval: 1)).encode(
            source, as: .webp, options: options)
        let defaults = try WebPCoder(configuration: .init(method: 0)).encode(source, as: .webp, options: options)
        #expect(fullFrames(everyFrame) == 12)
        #expect(fullFrames(defaults) < 12)
        #expect(try decode(everyFrame).frameCount == 12)
        // Lossy frames only, unless mixing is allowed.
        let mixed = try WebPCoder(configuration: .init(method: 0, allowMixed: true)).encode(
            source, as: .webp, options: options)
        #expect(!chunkNames(defaults, insideFrames: true).contains("VP8L"))
        #expect(chunkNames(mixed, insideFrames: true).contains("VP8L"))
    }

    @Test func refusesOtherFormats() throws {
        let image = Image(pixels: try PixelBuffer(width: 1, height: 1, format: .rgba8, bytes: [0, 0, 0, 255]))
        let error = #expect(throws: ImageError.self) { try WebPCoder().encode(image, as: .png, options: .init()) }
        #expect(error?.code == .unsupportedFormat)
        #expect(WebPCoder().canEncode(to: .webp) && !WebPCoder().canEncode(to: .jpeg))
    }
}

import Foundation
import Testing
import WICore
import WICoderSupport
import WICoderWebP
import WITestSupport

@Suite struct WebPDecodeTests {
    @Test func sniffsByMagicOnly() {
        #expect(WebPCoder().canDecode(Fixtures.data("formats/sample.webp")))
        #expect(!WebPCoder().canDecode(Fixtures.data("formats/sample.png")))
        #expect(!WebPCoder().canDecode(Data("RIFF\0\0\0\0WAVEfmt ".utf8)))
        #expect(!WebPCoder().canDecode(Data("RIFF".utf8)))
        #expect(WebPCoder().decodingFormats == [.webp])
    }

    @Test func thumbnailUsesTheExactTargetSizeAndIsFlagged() throws {
        let data = WebPReference.named("gallery2-4-lossy-alpha.webp").data  // 421x163, lossy with alpha
        let full = try WebPCoder().decode(data, options: .init())
        let image = try WebPCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 100, height: 100)))
        #expect(image.size == PixelSize(width: 100, height: 39))
        #expect(image.flags.contains(.thumbnail))
        // libwebp's own scaler made it: close to resampling the full decode (compared premultiplied, since the
        // colour under fully transparent pixels is undefined and differs).
        let resampled = try ImageCoding.AreaAverageResampler().resample(full.pixels, to: image.size)
        #expect(
            WebPTestSupport.psnr(
                try image.pixels.converted(to: .premultipliedRGBA8),
                try resampled.converted(to: .premultipliedRGBA8)) > 30)
        let exact = try WebPCoder().decode(
            data,
            options: .init(
                thumbnailPixelSize: .init(width: 100, height: 100),
                preserveAspectRatio: false))
        #expect(exact.size == PixelSize(width: 100, height: 100))
        let larger = try WebPCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 1000, height: 1000)))
        #expect(larger.size == PixelSize(width: 421, height: 163))
        #expect(!larger.flags.contains(.thumbnail))
        #expect(larger.pixels == full.pixels)
    }

    @Test func scaleDownLimitBytesWinsOverThumbnail() throws {
        let data = WebPReference.named("lossless4.webp").data  // 256x256
        let image = try WebPCoder().decode(
            data,
            options: .init(
                thumbnailPixelSize: .init(width: 200, height: 200),
                scaleDownLimitBytes: 40_000))
        #expect(image.size == PixelSize(width: 100, height: 100))
        #expect(image.pixels.byteCount <= 40_000)
        #expect(image.flags.contains(.thumbnail))
    }

    @Test func premultipliedOutputComesFromLibwebp() throws {
        for file in ["lossy_alpha4.webp", "alpha_color_cache.webp", "gallery2-4-lossy-alpha.webp"] {
            let data = WebPReference.named(file).data
            let straight = try WebPCoder().decode(data, options: .init())
            let premultiplied = try WebPCoder().decode(data, options: .init(premultipliedAlpha: true))
            #expect(premultiplied.pixels.format == .premultipliedRGBA8)
            // libwebp premultiplies with a fixed-point multiply that can round one lower than ours.
            let ours = try straight.pixels.converted(to: .premultipliedRGBA8)
            #expect(WebPTestSupport.maxDifference(ours, premultiplied.pixels) <= 1, "\(file)")
            #expect(!straight.pixels.isOpaque)
        }
    }

    @Test func onlyALossyImageWithoutAlphaIsKnownOpaque() throws {
        // Lossy without ALPH: libwebp writes 255 everywhere, so the pixels say so and `hasAlpha` reads none of them.
        for options in [DecodeOptions(), DecodeOptions(thumbnailPixelSize: .init(width: 40, height: 40))] {
            let lossy = try WebPCoder().decode(Fixtures.data("formats/sample.webp"), options: options)
            #expect(lossy.pixels.isKnownOpaque && !lossy.hasAlpha)
            var scanned = lossy.pixels
            try scanned.withUnsafeMutableBytes { _ in }  // any write forgets it: this copy's answer comes from a scan
            #expect(!scanned.isKnownOpaque && scanned.isOpaque)
        }
        // Lossy with alpha and lossless (whose "alpha is used" bit is a hint only) are scanned.
        for file in ["gallery2-4-lossy-alpha.webp", "lossless4.webp", "color_index.webp"] {
            let image = try WebPCoder().decode(WebPReference.named(file).data, options: .init())
            #expect(!image.pixels.isKnownOpaque, "\(file)")
        }
        #expect(
            try WebPCoder().decode(WebPReference.named("gallery2-4-lossy-alpha.webp").data, options: .init()).hasAlpha)
    }

    @Test func exifOrientationIsAppliedAndMetadataKept() throws {
        let data = WebPReference.named("made-metadata-orientation6.webp").data  // stored 32x20, EXIF orientation 6
        let raw = try WebPCoder().decode(data, options: .init(applyOrientation: false))
        #expect(raw.orientation == .right)
        #expect(raw.size == PixelSize(width: 32, height: 20))
        let upright = try WebPCoder().decode(data, options: .init())
        #expect(upright.orientation == .up)
        #expect(upright.size == PixelSize(width: 20, height: 32))
        #expect(upright.pixels == (try raw.pixels.applying(.right)))
        #expect(upright.metadata.iccProfile?.count == 672)
        #expect(upright.metadata.exif?.count == 90)
        #expect(upright.metadata.exif.flatMap(ImageCoding.ExifReader.orientation(in:)) == .right)
        #expect(upright.metadata.xmp.map { String(decoding: $0, as: UTF8.self).hasPrefix("<x:xmpmeta") } == true)
        // A thumbnail box is applied to the upright size; libwebp scales the stored image to the turned target.
        let thumbnail = try WebPCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 10, height: 10)))
        #expect(thumbnail.size == PixelSize(width: 6, height: 10))
        #expect(thumbnail.flags.contains(.thumbnail))
    }

    @Test func firstFrameOnly() throws {
        let data = WebPReference.named("animated-blend.webp").data
        let all = try WebPCoder().decode(data, options: .init())
        let first = try WebPCoder().decode(data, options: .init(firstFrameOnly: true))
        #expect(first.frameCount == 1)
        #expect(first.loopCount == 0)
        #expect(try first.frames[0].duration == 0)
        #expect(try first.pixels == all.frames[0].pixels)
    }

    @Test func pixelLimitRefusesBeforeAllocating() throws {
        let error = #expect(throws: ImageError.self) {
            try WebPCoder().decode(
                WebPReference.named("lossy_alpha4.webp").data, options: .init(pixelLimit: 100 * 100 - 1))
        }
        #expect(error?.code == .pixelLimitExceeded)
        // 12 frames of 400x400 exceed 1.9 MP; the first alone does not.
        let animated = WebPReference.named("animated-blend.webp").data
        let frames = #expect(throws: ImageError.self) {
            try WebPCoder().decode(animated, options: .init(pixelLimit: 1_900_000))
        }
        #expect(frames?.code == .pixelLimitExceeded)
        #expect(
            try WebPCoder().decode(animated, options: .init(firstFrameOnly: true, pixelLimit: 1_900_000)).frameCount
                == 1)

        // Headers that claim huge canvases: refused at once, not after a gigabyte allocation.
        let clock = ContinuousClock()
        let started = clock.now
        let stillBomb = WebPBuilder.losslessHeader(width: 16384, height: 16384)
        let still = #expect(throws: ImageError.self) {
            try WebPCoder().decode(stillBomb, options: .init(pixelLimit: 16384 * 16384 - 1))
        }
        #expect(still?.code == .pixelLimitExceeded)
        let animationBomb = try WebPBuilder.animation(canvasWidth: 16384, canvasHeight: 16384, frames: 2)
        let canvas = #expect(throws: ImageError.self) { try WebPCoder().decode(animationBomb, options: .init()) }
        #expect(canvas?.code == .pixelLimitExceeded)
        let decoder = #expect(throws: ImageError.self) {
            try WebPCoder().makeAnimatedDecoder(animationBomb, options: .init())
        }
        #expect(decoder?.code == .pixelLimitExceeded)
        #expect(clock.now - started < .seconds(1))
    }

    @Test func malformedDataGivesBadImageData() {
        for data in [
            Data("RIFF\u{10}\0\0\0WEBPVP8 ".utf8), Data("RIFF".utf8) + Data(count: 40),
            WebPReference.named("lossless4.webp").data.prefix(200),
        ] {
            let error = #expect(throws: ImageError.self) { try WebPCoder().decode(data, options: .init()) }
            #expect(error?.code == .badImageData)
        }
    }

    @Test func decodedThroughTheManager() throws {
        let manager = ImageCodersManager(coders: [WebPCoder()])
        let image = try manager.decode(Fixtures.data("formats/sample.webp"), options: .init())
        #expect(image.size == PixelSize(width: 128, height: 128))
        #expect(manager.decodingFormats == [.webp])
        let animated = try manager.makeAnimatedDecoder(
            WebPReference.named("animated-blend.webp").data, options: .init())
        #expect(animated.frameCount == 12)
    }
}

/// Builds WebP byte streams for tests.
enum WebPBuilder {
    static func le(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    static func chunk(_ name: String, _ payload: [UInt8]) -> [UInt8] {
        let padding: [UInt8] = payload.count % 2 == 1 ? [0] : []
        return Array(name.utf8) + le(payload.count, 4) + payload + padding
    }

    static func riff(_ chunks: [(String, [UInt8])]) -> Data {
        var body: [UInt8] = []
        for (name, payload) in chunks { body += chunk(name, payload) }
        return Data(Array("RIFF".utf8) + le(body.count + 4, 4) + Array("WEBP".utf8) + body)
    }

    /// A VP8L chunk whose header claims `width` x `height` with alpha, followed by a few bytes of nothing.
    static func losslessHeader(width: Int, height: Int) -> Data {
        let bits = (width - 1) | (height - 1) << 14 | 1 << 28
        return riff([("VP8L", [0x2F] + le(bits, 4) + [UInt8](repeating: 0, count: 16))])
    }

    /// An animation on a `canvasWidth` x `canvasHeight` canvas with `frames` 1x1 lossless frames.
    static func animation(canvasWidth: Int, canvasHeight: Int, frames: Int) throws -> Data {
        let pixel = Image(pixels: try PixelBuffer(width: 1, height: 1, format: .rgba8, bytes: [255, 0, 0, 255]))
        let still = try WebPCoder().encode(pixel, as: .webp, options: .init(lossless: true))
        let bitstream = WebPTestSupport.chunks(still).first { $0.fourCC == "VP8L" }!.payload
        let vp8l = chunk("VP8L", bitstream)
        let vp8x: [UInt8] = [0x02, 0, 0, 0] + le(canvasWidth - 1, 3) + le(canvasHeight - 1, 3)
        let header: [UInt8] = le(0, 3) + le(0, 3) + le(0, 3) + le(0, 3)
        let anmf: [UInt8] = header + le(100, 3) + [0] + vp8l
        return riff([("VP8X", vp8x), ("ANIM", [0, 0, 0, 0, 0, 0])] + Array(repeating: ("ANMF", anmf), count: frames))
    }
}

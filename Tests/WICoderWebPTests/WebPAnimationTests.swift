import Foundation
import Testing
import WICore
import WICoderWebP
import WITestSupport

@Suite struct WebPAnimationTests {
    /// made-blend-dispose.webp: 48x40, loop count 3, frames that blend and dispose to background (see
    /// Tests/Fixtures/make-webp-fixtures.sh); compared frame by frame with Pillow's composited canvas.
    let reference = WebPReference.named("made-blend-dispose.webp")

    @Test func blendingAndDisposalMatchPillowFrameByFrame() throws {
        let image = try WebPCoder().decode(reference.data, options: .init())
        #expect(image.frameCount == 4)
        #expect(image.loopCount == 3)
        #expect(image.durations == [0.08, 0.03, 0.1, 0.04])  // 5 ms plays as 100 ms
        #expect(try image.frames.map { SHA256.hex($0.pixels.packedBytes()) } == reference.frameSHA256)
        // Frame 0 is disposed to transparent before frame 1, which does not cover (15, 7); frame 2 blends onto
        // what frame 1 left, and is disposed before frame 3.
        #expect(try image.frames[0].pixels.color(x: 15, y: 7) == RGBAColor(red: 255, green: 240, blue: 50, alpha: 123))
        #expect(try image.frames[1].pixels.color(x: 15, y: 7) == .clear)
        #expect(try image.frames[2].pixels.color(x: 15, y: 31) == RGBAColor(red: 27, green: 254, blue: 239, alpha: 123))
        #expect(try image.frames[3].pixels.color(x: 15, y: 31) == .clear)
        #expect(image.isAnimated && image.hasAlpha)
    }

    @Test func randomAccessMatchesSequentialDecode() throws {
        let decoder = try WebPCoder().makeAnimatedDecoder(reference.data, options: .init())
        #expect(decoder.canvasSize == PixelSize(width: 48, height: 40))
        #expect(decoder.frameCount == 4)
        #expect(decoder.loopCount == 3)
        #expect((0..<4).map(decoder.duration(at:)) == [0.08, 0.03, 0.1, 0.04])
        for index in [2, 0, 3, 3, 1, 2, 0] {
            #expect(
                SHA256.hex(try decoder.frame(at: index).packedBytes()) == reference.frameSHA256[index], "frame \(index)"
            )
        }
        let outOfRange = #expect(throws: ImageError.self) { try decoder.frame(at: 4) }
        #expect(outOfRange?.code == .badImageData)
    }

    @Test func oneDecoderServesManyThreadsAtOnce() throws {
        let decoder = try WebPCoder().makeAnimatedDecoder(reference.data, options: .init())
        let expected = reference.frameSHA256
        DispatchQueue.concurrentPerform(iterations: 32) { iteration in
            let index = (iteration * 7) % 4
            #expect((try? decoder.frame(at: index)).map { SHA256.hex($0.packedBytes()) } == expected[index])
        }
    }

    @Test func thumbnailsResampleEachCompositedFrame() throws {
        let options = DecodeOptions(thumbnailPixelSize: .init(width: 24, height: 24))
        let full = try WebPCoder().decode(reference.data, options: .init())
        let image = try WebPCoder().decode(reference.data, options: options)
        #expect(image.flags.contains(.thumbnail))
        #expect(image.frameCount == 4)
        for (small, large) in try zip(image.frames, full.frames) {
            #expect(
                small.pixels
                    == (try ImageCoding.AreaAverageResampler().resample(large.pixels, to: .init(width: 24, height: 20)))
            )
        }
        let decoder = try WebPCoder().makeAnimatedDecoder(reference.data, options: options)
        #expect(decoder.canvasSize == PixelSize(width: 24, height: 20))
        #expect(try decoder.frame(at: 3) == image.frames[3].pixels)
    }

    @Test func scaleDownLimitBytesCoversAllFrames() throws {
        let data = WebPReference.named("animated-blend.webp").data  // 12 frames of 400x400
        let image = try WebPCoder().decode(data, options: .init(scaleDownLimitBytes: 12 * 100 * 100 * 4))
        #expect(image.frameCount == 12)
        #expect(image.size == PixelSize(width: 100, height: 100))
        #expect(image.cost == 12 * 100 * 100 * 4)
        #expect(image.flags.contains(.thumbnail))
        #expect(image.decodeOptions?.scaleDownLimitBytes == 12 * 100 * 100 * 4)
        let first = try WebPCoder().decode(
            data, options: .init(firstFrameOnly: true, scaleDownLimitBytes: 12 * 100 * 100 * 4))
        #expect(first.size == PixelSize(width: 346, height: 346))  // the whole limit for one frame
    }

    @Test func premultipliedFramesStayCloseToStraightOnes() throws {
        let straight = try WebPCoder().decode(reference.data, options: .init())
        let premultiplied = try WebPCoder().decode(reference.data, options: .init(premultipliedAlpha: true))
        for (a, b) in try zip(straight.frames, premultiplied.frames) {
            #expect(b.pixels.format == .premultipliedRGBA8)
            #expect(WebPTestSupport.maxDifference(try a.pixels.converted(to: .premultipliedRGBA8), b.pixels) <= 1)
        }
    }

    @Test func aStillIsOneFrame() throws {
        let decoder = try WebPCoder().makeAnimatedDecoder(Fixtures.data("formats/sample.webp"), options: .init())
        #expect(decoder.frameCount == 1)
        #expect(decoder.loopCount == 0)
        #expect(
            try decoder.frame(at: 0)
                == (try WebPCoder().decode(Fixtures.data("formats/sample.webp"), options: .init()).pixels))
        let notWebP = #expect(throws: ImageError.self) {
            try WebPCoder().makeAnimatedDecoder(Fixtures.data("formats/sample.png"), options: .init())
        }
        #expect(notWebP?.code == .unsupportedFormat)
    }
}

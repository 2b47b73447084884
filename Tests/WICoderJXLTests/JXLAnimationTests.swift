import Foundation
import Testing
import WICore
import WICoderJXL
import WITestSupport

struct JXLAnimationTests {
    let data = Fixtures.data("jxl/5_frames_numbered_jxli.jxl")

    @Test func decodesFramesWithDurationsAndLoopCount() throws {
        let image = try JXLCoder().decode(data, options: .init())
        #expect(image.frameCount == 5)
        #expect(image.durations == [0.5, 0.5, 0.5, 0.5, 0.5])
        #expect(image.loopCount == 0)
        let first = try JXLCoder().decode(data, options: .init(firstFrameOnly: true))
        #expect(first.frameCount == 1)
        #expect(try first.frames[0].pixels == image.frames[0].pixels)
    }

    @Test func framesOnDemandEqualFramesDecodedUpFront() throws {
        let preloaded = try JXLCoder().decode(data, options: .init(preloadAllFrames: true))
        #expect(preloaded.frameBuffer == nil && preloaded.frameCount == 5)
        for order in [[0, 1, 2, 3, 4], [4, 3, 1, 2, 0]] {
            let image = try JXLCoder().decode(data, options: .init(frameBufferLimitBytes: 1))
            let buffer = try #require(image.frameBuffer)
            #expect(buffer.capacity == 1 && image.durations == preloaded.durations && image.loopCount == 0)
            for index in order {
                #expect(try image.frame(at: index).pixels == preloaded.frame(at: index).pixels, "frame \(index)")
                // The open libjxl session holds the frame it decoded last, nothing more.
                #expect(buffer.decoderHeldBytes <= 256 * 256 * 4 && buffer.heldBytes <= 256 * 256 * 4)
            }
            #expect(buffer.decodeCount == 1 + order.filter { $0 != 0 }.count)
        }
        let thumbnail = try JXLCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 64, height: 64)))
        #expect(thumbnail.size == PixelSize(width: 64, height: 64) && thumbnail.flags.contains(.thumbnail))
        #expect(try thumbnail.frame(at: 3).pixels.size == PixelSize(width: 64, height: 64))
    }

    @Test func animatedDecoderGivesTheSameFramesInAnyOrder() throws {
        let image = try JXLCoder().decode(data, options: .init())
        let decoder = try JXLCoder().makeAnimatedDecoder(data, options: .init())
        #expect(decoder.frameCount == 5)
        #expect(decoder.canvasSize == PixelSize(width: 256, height: 256))
        #expect(decoder.duration(at: 3) == 0.5)
        for index in [4, 0, 2, 1, 3] { #expect(try decoder.frame(at: index) == image.frames[index].pixels) }
        let outOfRange = #expect(throws: ImageError.self) { try decoder.frame(at: 5) }
        #expect(outOfRange?.code == .badImageData)
    }
}

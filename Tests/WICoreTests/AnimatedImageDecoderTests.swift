import Testing
import WICore

/// Three 2x1 frames whose red component is the frame index, with delays 0 ms, 50 ms, 5 ms.
private struct CountingAnimation: AnimatedImageDecoder {
    var canvasSize: PixelSize { .init(width: 2, height: 1) }
    var frameCount: Int { 3 }
    var loopCount: Int { 4 }
    func duration(at index: Int) -> Double { ImageFrame.browserDuration(milliseconds: [0, 50, 5][index]) }
    func frame(at index: Int) throws(ImageError) -> PixelBuffer {
        try PixelBuffer(width: 2, height: 1, format: .rgba8, bytes: [UInt8(index), 0, 0, 255, UInt8(index), 0, 0, 255])
    }
}

@Suite struct AnimatedImageDecoderTests {
    @Test func makesAnImageWithEveryFrame() throws {
        let image = try CountingAnimation().makeImage(format: .gif, options: .init())
        #expect(image.frameCount == 3)
        #expect(image.loopCount == 4)
        #expect(image.durations == [0.1, 0.05, 0.1])  // under 11 ms plays as 100 ms
        #expect(try image.frames.map { $0.pixels.color(x: 1, y: 0).red } == [0, 1, 2])
        #expect(image.cost == 3 * 8)
        #expect(image.isAnimated)
    }

    @Test func firstFrameOnly() throws {
        let image = try CountingAnimation().makeImage(format: .gif, options: .init(firstFrameOnly: true))
        #expect(image.frameCount == 1)
        #expect(try image.frames[0].duration == 0)
        #expect(!image.isAnimated)
    }
}

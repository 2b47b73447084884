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

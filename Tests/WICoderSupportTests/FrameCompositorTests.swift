import Synchronization
import Testing
import WICore
import WICoderSupport
import WITestSupport

/// Frames of one colour each, counting how often each is decoded.
private final class SolidFrames: ImageCoding.AnimationFrameSource {
    let frames: [ImageCoding.AnimationFrameInfo]
    let colors: [[UInt8]]
    let decodes = Mutex<[Int]>([])
    let failing: Int?

    init(frames: [ImageCoding.AnimationFrameInfo], colors: [[UInt8]], failing: Int? = nil) {
        self.frames = frames
        self.colors = colors
        self.failing = failing
    }

    func pixels(ofFrame index: Int) throws(ImageError) -> PixelBuffer {
        decodes.withLock { $0.append(index) }
        if index == failing { throw ImageError(.badImageData, "frame \(index) is damaged") }
        let info = frames[index]
        return try PixelBuffer(
            width: info.width, height: info.height, format: .rgba8,
            bytes: Array([[UInt8]](repeating: colors[index], count: info.width * info.height).joined()))
    }
}

@Suite struct FrameCompositorTests {
    static let canvas = PixelSize(width: 4, height: 1)

    static func compose(_ frames: [ImageCoding.AnimationFrameInfo], _ colors: [[UInt8]]) throws -> [[RGBAColor]] {
        let source = SolidFrames(frames: frames, colors: colors)
        var compositor = try ImageCoding.FrameCompositor(canvasSize: canvas, frames: frames)
        return try frames.indices.map { index in
            let frame = try compositor.frame(at: index) { i throws(ImageError) in try source.pixels(ofFrame: i) }
            return (0..<4).map { frame.color(x: $0, y: 0) }
        }
    }

    @Test func disposalAndBlendRules() throws {
        let red: [UInt8] = [255, 0, 0, 255]
        let half: [UInt8] = [0, 0, 200, 128]
        let clear: [UInt8] = [9, 9, 9, 0]
        let frames = [
            ImageCoding.AnimationFrameInfo(x: 0, y: 0, width: 2, height: 1, disposal: .none, blend: .source),
            ImageCoding.AnimationFrameInfo(x: 1, y: 0, width: 2, height: 1, disposal: .previous, blend: .over),
            ImageCoding.AnimationFrameInfo(x: 1, y: 0, width: 2, height: 1, disposal: .background, blend: .source),
            ImageCoding.AnimationFrameInfo(x: 0, y: 0, width: 1, height: 1, disposal: .none, blend: .over),
        ]
        let out = try Self.compose(frames, [red, half, half, clear])
        let r = RGBAColor(red: 255, green: 0, blue: 0, alpha: 255)
        let t = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
        let h = RGBAColor(red: 0, green: 0, blue: 200, alpha: 128)
        // Half-transparent blue over opaque red: a = 255, c = (200 * 128 + 0) / 255 -> (127, 0, 100).
        #expect(out[0] == [r, r, t, t])
        #expect(out[1] == [r, RGBAColor(red: 127, green: 0, blue: 100, alpha: 255), h, t])
        #expect(out[2] == [r, h, h, t])  // previous restored frame 0's canvas; source replaces exactly
        #expect(out[3] == [r, t, t, t])  // background cleared (1,0)-(2,0); alpha 0 over leaves red
    }

    @Test func overWithStraightAlphaOnBothSides() throws {
        let frames = [
            ImageCoding.AnimationFrameInfo(x: 0, y: 0, width: 4, height: 1, blend: .source),
            ImageCoding.AnimationFrameInfo(x: 0, y: 0, width: 4, height: 1, blend: .over),
        ]
        // (200,0,0,128) over (0,0,200,128): a = 128 + 128 (1 - 128/255) = 191.75 -> 192; exact fractions give
        // r = 134.0 -> 134 and b = 66.49 -> 66 (checked with Python fractions, rounded half up).
        let out = try Self.compose(frames, [[0, 0, 200, 128], [200, 0, 0, 128]])
        #expect(out[1][0] == RGBAColor(red: 134, green: 0, blue: 66, alpha: 192))
    }

    /// A frame index or keyframe budget from a caller gives `.invalidArgument`, never a trap.
    @Test func outOfRangeArgumentsAreErrors() throws {
        let frames = (0..<3).map { i in ImageCoding.AnimationFrameInfo(x: i, y: 0, width: 1, height: 1) }
        let source = SolidFrames(frames: frames, colors: [[1, 0, 0, 255], [2, 0, 0, 255], [3, 0, 0, 255]])
        var compositor = try ImageCoding.FrameCompositor(canvasSize: Self.canvas, frames: frames)
        for index in [-1, 3, Int.max, Int.min] {
            let error = #expect(throws: ImageError.self) {
                try compositor.frame(at: index) { (i: Int) throws(ImageError) -> PixelBuffer in
                    try source.pixels(ofFrame: i)
                }
            }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message == "frame index must be in 0..<3, got \(index)")
        }
        #expect(source.decodes.withLock { $0.isEmpty })
        for budget in [0, -5, Int.max] {
            let error = #expect(throws: ImageError.self) {
                try ImageCoding.FrameCompositor(canvasSize: Self.canvas, frames: frames, maxKeyframes: budget)
            }
            #expect(error?.message == "maxKeyframes must be in 1...65536, got \(budget)")
        }
    }

    @Test func randomAccessReplaysFromTheNearestKeyframe() throws {
        let frames = (0..<100).map { i in
            ImageCoding.AnimationFrameInfo(x: i % 4, y: 0, width: 1, height: 1, disposal: .none, blend: .source)
        }
        let colors = (0..<100).map { [UInt8($0), 0, 0, 255] }
        let source = SolidFrames(frames: frames, colors: colors)
        var compositor = try ImageCoding.FrameCompositor(canvasSize: Self.canvas, frames: frames, maxKeyframes: 10)
        #expect(compositor.keyframeInterval == 10)
        let decode = { (i: Int) throws(ImageError) -> PixelBuffer in try source.pixels(ofFrame: i) }
        let last = try compositor.frame(at: 99, decode: decode)
        #expect((0..<4).map { last.color(x: $0, y: 0).red } == [96, 97, 98, 99])
        #expect(source.decodes.withLock { $0.count } == 100)
        source.decodes.withLock { $0.removeAll() }
        let middle = try compositor.frame(at: 55, decode: decode)
        #expect((0..<4).map { middle.color(x: $0, y: 0).red } == [52, 53, 54, 55])
        #expect(source.decodes.withLock { $0 } == [50, 51, 52, 53, 54, 55])  // from the keyframe before frame 50
        source.decodes.withLock { $0.removeAll() }
        _ = try compositor.frame(at: 56, decode: decode)  // sequential: one draw
        #expect(source.decodes.withLock { $0 } == [56])
    }

    @Test func framesAddedLaterPlayOnWithABoundedKeyframeBudget() throws {
        let frames = (0..<40).map { i in
            ImageCoding.AnimationFrameInfo(x: i % 4, y: 0, width: 1, height: 1, disposal: .none, blend: .source)
        }
        let source = SolidFrames(frames: frames, colors: (0..<40).map { [UInt8($0), 0, 0, 255] })
        var compositor = try ImageCoding.FrameCompositor(canvasSize: Self.canvas, frames: [frames[0]], maxKeyframes: 2)
        let decode = { (i: Int) throws(ImageError) -> PixelBuffer in try source.pixels(ofFrame: i) }
        for index in 1..<40 {
            try compositor.appendFrames([frames[index]])
            _ = try compositor.frame(at: index, decode: decode)
        }
        #expect(source.decodes.withLock { $0 } == Array(0..<40))  // one draw per new frame
        #expect(compositor.keyframeInterval == 16)  // 4 -> 8 -> 16 to keep at most 2 states
        source.decodes.withLock { $0.removeAll() }
        let frame = try compositor.frame(at: 20, decode: decode)
        #expect((0..<4).map { frame.color(x: $0, y: 0).red } == [20, 17, 18, 19])
        #expect(source.decodes.withLock { $0 } == Array(16...20))
        #expect(throws: ImageError.self) {
            try compositor.appendFrames([ImageCoding.AnimationFrameInfo(x: 4, y: 0, width: 1, height: 1)])
        }
    }

    @Test func framesAfterAFullClearDoNotReplay() throws {
        let frames = [
            ImageCoding.AnimationFrameInfo(x: 0, y: 0, width: 4, height: 1, disposal: .none, blend: .source),
            ImageCoding.AnimationFrameInfo(x: 0, y: 0, width: 4, height: 1, disposal: .background, blend: .over),
            ImageCoding.AnimationFrameInfo(x: 1, y: 0, width: 1, height: 1, disposal: .none, blend: .over),
            ImageCoding.AnimationFrameInfo(
                x: 0, y: 0, width: 4, height: 1, disposal: .none, blend: .over, isOpaque: true),
            ImageCoding.AnimationFrameInfo(x: 2, y: 0, width: 1, height: 1, disposal: .none, blend: .over),
        ]
        let source = SolidFrames(frames: frames, colors: Array(repeating: [1, 2, 3, 255], count: 5))
        var compositor = try ImageCoding.FrameCompositor(canvasSize: Self.canvas, frames: frames)
        let decode = { (i: Int) throws(ImageError) -> PixelBuffer in try source.pixels(ofFrame: i) }
        _ = try compositor.frame(at: 2, decode: decode)
        #expect(source.decodes.withLock { $0 } == [2])  // frame 1 cleared the whole canvas
        source.decodes.withLock { $0.removeAll() }
        _ = try compositor.frame(at: 4, decode: decode)
        #expect(source.decodes.withLock { $0 } == [3, 4])  // frame 3 covers the canvas opaquely
    }

    @Test func aCoveringFrameDisposedToPreviousDoesNotLoseTheCanvasUnderIt() throws {
        let frames = [
            ImageCoding.AnimationFrameInfo(x: 0, y: 0, width: 1, height: 1, disposal: .none, blend: .source),
            ImageCoding.AnimationFrameInfo(x: 0, y: 0, width: 4, height: 1, disposal: .previous, blend: .source),
            ImageCoding.AnimationFrameInfo(x: 3, y: 0, width: 1, height: 1, disposal: .none, blend: .source),
        ]
        let source = SolidFrames(frames: frames, colors: [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]])
        var compositor = try ImageCoding.FrameCompositor(canvasSize: Self.canvas, frames: frames)
        let decode = { (i: Int) throws(ImageError) -> PixelBuffer in try source.pixels(ofFrame: i) }
        let covering = try compositor.frame(at: 1, decode: decode)
        #expect(source.decodes.withLock { $0 } == [1])  // frame 1 hides the canvas
        #expect((0..<4).map { covering.color(x: $0, y: 0).green } == [255, 255, 255, 255])
        let after = try compositor.frame(at: 2, decode: decode)  // restores frame 0's canvas first
        #expect((0..<4).map { after.color(x: $0, y: 0).alpha } == [255, 0, 0, 255])
        #expect(after.color(x: 0, y: 0).red == 255 && after.color(x: 3, y: 0).blue == 255)
    }

    @Test func rectanglesOutsideTheCanvasAndWrongSizesAreErrors() throws {
        let outside = #expect(throws: ImageError.self) {
            try ImageCoding.FrameCompositor(
                canvasSize: Self.canvas, frames: [ImageCoding.AnimationFrameInfo(x: 3, y: 0, width: 2, height: 1)])
        }
        #expect(outside?.code == .badImageData)
        var compositor = try ImageCoding.FrameCompositor(
            canvasSize: Self.canvas, frames: [ImageCoding.AnimationFrameInfo(x: 0, y: 0, width: 2, height: 1)])
        let wrong = #expect(throws: ImageError.self) {
            try compositor.frame(at: 0) { _ throws(ImageError) in try PixelBuffer(width: 1, height: 1, format: .rgba8) }
        }
        #expect(wrong?.code == .badImageData)
    }

    @Test func decoderKeepsFramesBeforeADamagedOneAndFinishesThumbnails() throws {
        let frames = (0..<3).map { _ in
            ImageCoding.AnimationFrameInfo(x: 0, y: 0, width: 4, height: 1, blend: .source, duration: 0.05)
        }
        let colors = Array(repeating: [UInt8(10), 20, 30, 255], count: 3)
        let damaged = try ImageCoding.CompositedAnimationDecoder(
            canvasSize: Self.canvas, frames: frames, loopCount: 2,
            source: SolidFrames(frames: frames, colors: colors, failing: 2),
            options: .init(preloadAllFrames: true))
        let image = try damaged.image(format: .gif)
        #expect(image.frameCount == 2 && image.flags == .incomplete && image.loopCount == 2)
        #expect(image.durations == [0.05, 0.05])
        // On demand the damage shows when the frame is asked for.
        let onDemand = try ImageCoding.CompositedAnimationDecoder(
            canvasSize: Self.canvas, frames: frames, loopCount: 2,
            source: SolidFrames(frames: frames, colors: colors, failing: 2)
        )
        .image(format: .gif)
        #expect(onDemand.frameCount == 3 && onDemand.flags == [] && onDemand.loopCount == 2)
        #expect(try onDemand.frame(at: 1).pixels == image.frame(at: 1).pixels)
        let late = #expect(throws: ImageError.self) { try onDemand.frame(at: 2) }
        #expect(late?.code == .badImageData)
        let broken = try ImageCoding.CompositedAnimationDecoder(
            canvasSize: Self.canvas, frames: frames, loopCount: 0,
            source: SolidFrames(frames: frames, colors: colors, failing: 0))
        #expect(throws: ImageError.self) { try broken.image(format: .gif) }
        let small = try ImageCoding.CompositedAnimationDecoder(
            canvasSize: Self.canvas, frames: frames, loopCount: 0,
            source: SolidFrames(frames: frames, colors: colors),
            options: .init(thumbnailPixelSize: .init(width: 2, height: 2), premultipliedAlpha: true))
        #expect(small.canvasSize == PixelSize(width: 2, height: 1))
        let thumbnail = try small.image(format: .gif)
        #expect(thumbnail.flags == .thumbnail && thumbnail.pixels.format == .premultipliedRGBA8)
        #expect(thumbnail.size == PixelSize(width: 2, height: 1) && thumbnail.frameCount == 3)
    }

    /// Random layouts played in random order with a tiny keyframe budget equal a fresh sequential replay.
    @Test func randomAccessMatchesSequentialReplayOnRandomLayouts() throws {
        var random = SeededRandom(seed: 7)
        let canvas = PixelSize(width: 5, height: 3)
        for _ in 0..<40 {
            let count = Int.random(in: 2...12, using: &random)
            var frames: [ImageCoding.AnimationFrameInfo] = []
            var colors: [[UInt8]] = []
            for _ in 0..<count {
                let full = Int.random(in: 0..<3, using: &random) == 0
                let x = full ? 0 : Int.random(in: 0..<5, using: &random)
                let y = full ? 0 : Int.random(in: 0..<3, using: &random)
                let width = full ? 5 : Int.random(in: 1...(5 - x), using: &random)
                let height = full ? 3 : Int.random(in: 1...(3 - y), using: &random)
                let alpha = [UInt8(0), 90, 255].randomElement(using: &random)!
                frames.append(
                    ImageCoding.AnimationFrameInfo(
                        x: x, y: y, width: width, height: height,
                        disposal: [.none, .background, .previous].randomElement(using: &random)!,
                        blend: [.source, .over].randomElement(using: &random)!, isOpaque: alpha == 255))
                colors.append([UInt8.random(in: 0...255, using: &random), 7, 9, alpha])
            }
            let source = SolidFrames(frames: frames, colors: colors)
            let decode = { (i: Int) throws(ImageError) -> PixelBuffer in try source.pixels(ofFrame: i) }
            var shared = try ImageCoding.FrameCompositor(canvasSize: canvas, frames: frames, maxKeyframes: 1)
            for index in (0..<count * 2).map({ _ in Int.random(in: 0..<count, using: &random) }) {
                var fresh = try ImageCoding.FrameCompositor(
                    canvasSize: canvas, frames: Array(frames.prefix(index + 1)), maxKeyframes: 1)
                var expected = try fresh.frame(at: 0, decode: decode)
                for step in 1...max(1, index) where index > 0 { expected = try fresh.frame(at: step, decode: decode) }
                #expect(try shared.frame(at: index, decode: decode) == expected, "frame \(index) of \(frames)")
            }
        }
    }
}

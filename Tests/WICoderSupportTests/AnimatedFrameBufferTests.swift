import Synchronization
import Testing
import WICore
import WICoderSupport

/// `frameCount` 8x8 frames on a 100x100 canvas, frame i at ((i * 7) % 92, (i * 13) % 92), disposal none, opaque red
/// of value i % 256; counts every frame it produces, and fails with `.badImageData` for `failing`.
private final class CountingSource: ImageCoding.AnimationFrameSource {
    static let canvas = PixelSize(width: 100, height: 100)
    static let canvasBytes = 100 * 100 * 4
    let frameCount: Int
    let failing: Int?
    private let produced = Mutex(0)

    init(frameCount: Int, failing: Int? = nil) {
        self.frameCount = frameCount
        self.failing = failing
    }

    var infos: [ImageCoding.AnimationFrameInfo] {
        (0..<frameCount).map {
            ImageCoding.AnimationFrameInfo(x: ($0 * 7) % 92, y: ($0 * 13) % 92, width: 8, height: 8, duration: 0.05)
        }
    }

    /// How many frames were produced (drawn by the compositor).
    var count: Int { produced.withLock { $0 } }

    func pixels(ofFrame index: Int) throws(ImageError) -> PixelBuffer {
        produced.withLock { $0 += 1 }
        if index == failing { throw ImageError(.badImageData, "frame \(index) is damaged") }
        return try PixelBuffer(
            width: 8, height: 8, format: .rgba8, bytes: [UInt8(index % 256), 0, 0, 255].repeated(64))
    }

    func decoder(bufferFrames: Int, preload: Bool = false) throws -> ImageCoding.CompositedAnimationDecoder {
        let options = DecodeOptions(preloadAllFrames: preload, frameBufferLimitBytes: bufferFrames * Self.canvasBytes)
        return try ImageCoding.CompositedAnimationDecoder(
            canvasSize: Self.canvas, frames: infos, loopCount: 0, source: self,
            options: options)
    }
}

extension Array {
    fileprivate func repeated(_ times: Int) -> [Element] { (0..<times).flatMap { _ in self } }
}

@Suite struct AnimatedFrameBufferTests {
    @Test func sequentialPlaybackDrawsEachFrameOnceAndStaysInsideItsBound() throws {
        let source = CountingSource(frameCount: 200)
        let image = try source.decoder(bufferFrames: 4).image(format: .gif)
        let buffer = try #require(image.frameBuffer)
        #expect(image.frameCount == 200 && buffer.capacity == 4 && buffer.frameBytes == CountingSource.canvasBytes)
        #expect(source.count == 1 && buffer.decodeCount == 1)  // only the poster so far
        // Keyframes on demand: a quarter of the 4-frame budget holds one canvas; plus the canvas for the next frame.
        #expect(image.cost == CountingSource.canvasBytes * (1 + 4 + 2))
        #expect(image.cost == buffer.maxHeldBytes)
        for pass in 0..<2 {
            for index in 0..<200 {
                let frame = try image.frame(at: index)
                #expect(frame.duration == 0.05)
                let x = (index * 7) % 92
                let y = (index * 13) % 92
                #expect(
                    frame.pixels.color(x: x + 3, y: y + 3)
                        == RGBAColor(red: UInt8(index % 256), green: 0, blue: 0, alpha: 255))
                #expect(buffer.heldBytes <= buffer.capacity * buffer.frameBytes, "pass \(pass), frame \(index)")
                #expect(buffer.heldFrames.count <= 4)
                #expect(buffer.decoderHeldBytes <= 2 * CountingSource.canvasBytes)
            }
            if pass == 0 {
                // One decode and one draw per frame: the compositor kept the canvas for the next frame.
                #expect(buffer.decodeCount == 200 && source.count == 200)
                #expect(buffer.heldFrames == [196, 197, 198, 199])
            }
        }
        // The second pass found none of frames 1...199 in the 4-frame buffer (frame 0 is the poster) and replayed
        // frame 0 once to start again from the transparent canvas.
        #expect(buffer.decodeCount == 200 + 199 && source.count == 200 + 200)
    }

    @Test func aFrameInTheBufferIsNotDecodedAgain() throws {
        let source = CountingSource(frameCount: 10)
        let image = try source.decoder(bufferFrames: 3).image(format: .gif)
        let buffer = try #require(image.frameBuffer)
        let fifth = try image.frame(at: 5)
        for _ in 0..<5 { #expect(try image.frame(at: 5) == fifth) }
        #expect(buffer.decodeCount == 2 && buffer.heldFrames == [5])
        _ = try image.frame(at: 6)
        _ = try image.frame(at: 7)
        _ = try image.frame(at: 5)  // most recently used now: 6 goes first
        _ = try image.frame(at: 8)
        #expect(buffer.heldFrames == [5, 7, 8] && buffer.decodeCount == 5)
    }

    @Test func randomAccessReplaysFromTheNearestKeyframe() throws {
        let source = CountingSource(frameCount: 200)
        // 40 frames of buffer: keyframes may take a quarter, 10 canvases, so one every 20 frames.
        let image = try source.decoder(bufferFrames: 40).image(format: .gif)
        let buffer = try #require(image.frameBuffer)
        for index in 0..<200 { _ = try image.frame(at: index) }
        #expect(buffer.heldFrames == Array(160..<200) && source.count == 200)
        let sequential = try CountingSource(frameCount: 200).decoder(bufferFrames: 40, preload: true).image(
            format: .gif)
        #expect(try image.frame(at: 150) == sequential.frame(at: 150))
        #expect(source.count - 200 == 11 && buffer.decodeCount == 201)  // 140...150 from the keyframe before 140
    }

    @Test func concurrentReadersDecodeEachFrameOnce() async throws {
        let source = CountingSource(frameCount: 48)
        let image = try source.decoder(bufferFrames: 48).image(format: .gif)
        let reference = try source.decoder(bufferFrames: 48, preload: true).image(format: .gif)
        let expected = try reference.frames.map(\.pixels)
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for reader in 0..<6 {
                group.addTask {
                    var wrong = 0
                    for step in 0..<48 {
                        let index = (step * (reader * 2 + 1) + reader * 5) % 48
                        if (try? image.frame(at: index).pixels) != expected[index] { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect(try #require(image.frameBuffer).decodeCount == 48)
    }

    @Test func aDamagedFrameThrowsItsErrorWithoutDecodingAgain() throws {
        let source = CountingSource(frameCount: 8, failing: 5)
        let image = try source.decoder(bufferFrames: 8).image(format: .gif)
        let buffer = try #require(image.frameBuffer)
        #expect(try image.frame(at: 4).pixels.width == 100)
        for _ in 0..<3 {
            #expect(Self.code { _ = try image.frame(at: 5) } == .badImageData)
        }
        #expect(buffer.decodeCount == 3)  // the poster, 4, and 5 once
        #expect(Self.code { _ = try image.frame(at: 6) } == .badImageData)  // drawn over frame 5
        #expect(Self.code { _ = try image.frames } == .badImageData)
        #expect(Self.code { _ = try image.frame(at: 8) } == .invalidArgument)
        #expect(Self.code { _ = try image.frame(at: -1) } == .invalidArgument)
        #expect(image.duration(at: 99) == 0.1)
    }

    @Test func preloadAndFirstFrameOnlyDecodeUpFront() throws {
        let source = CountingSource(frameCount: 12)
        let preloaded = try source.decoder(bufferFrames: 1, preload: true).image(format: .gif)
        #expect(preloaded.frameBuffer == nil && preloaded.frameCount == 12 && source.count == 12)
        #expect(preloaded.cost == 12 * CountingSource.canvasBytes)
        let options = DecodeOptions(firstFrameOnly: true)
        let first = try ImageCoding.CompositedAnimationDecoder(
            canvasSize: CountingSource.canvas, frames: source.infos, loopCount: 0,
            source: source, options: options
        ).image(format: .gif)
        #expect(first.frameBuffer == nil && first.frameCount == 1 && first.duration(at: 0) == 0)
        let lazy = try source.decoder(bufferFrames: 1).image(format: .gif)
        #expect(lazy.frameBuffer?.capacity == 1)
        #expect(try lazy.frames.map(\.pixels) == preloaded.frames.map(\.pixels))
        #expect(lazy.durations == preloaded.durations)
        // A copy shares the buffer; replacing the frames makes a decoded image.
        #expect(lazy.with(loopCount: 3).frameBuffer === lazy.frameBuffer)
        #expect(try lazy.with(frames: [lazy.frame(at: 2)]).frameBuffer == nil)
    }

    @Test func theWholeAnimationIsCheckedAgainstThePixelLimitWhenAllFramesAreAskedFor() throws {
        let source = CountingSource(frameCount: 30)
        let options = DecodeOptions(pixelLimit: 10 * 100 * 100, frameBufferLimitBytes: CountingSource.canvasBytes)
        #expect(options.pixelLimitFrameCount(frameCount: 30, canvas: CountingSource.canvas) == 4)
        let image = try ImageCoding.CompositedAnimationDecoder(
            canvasSize: CountingSource.canvas, frames: source.infos, loopCount: 0,
            source: source, options: options
        ).image(format: .gif)
        #expect(try image.frame(at: 29).pixels.width == 100)
        #expect(Self.code { _ = try image.frames } == .pixelLimitExceeded)
    }

    @Test func optionsSizeTheBuffer() throws {
        let options = DecodeOptions(frameBufferLimitBytes: 10_000)
        #expect(options.frameBufferCapacity(frameBytes: 4_000) == 2)
        #expect(options.frameBufferCapacity(frameBytes: 40_000) == 1)
        #expect(options.keyframeLimit(canvasBytes: 1_000, frameCount: 50) == 2)
        #expect(options.keyframeLimit(canvasBytes: 1, frameCount: 50) == 32)
        #expect(DecodeOptions(preloadAllFrames: true).keyframeLimit(canvasBytes: 1 << 30, frameCount: 50) == 32)
        #expect(
            DecodeOptions(firstFrameOnly: true).pixelLimitFrameCount(frameCount: 50, canvas: .init(width: 9, height: 9))
                == 1)
        #expect(
            DecodeOptions(preloadAllFrames: true).pixelLimitFrameCount(
                frameCount: 50, canvas: .init(width: 9, height: 9)) == 50)
        #expect(
            DecodeOptions().pixelLimitFrameCount(frameCount: 500, canvas: .init(width: 1000, height: 1000)) == 2 + 8 + 2
        )
        #expect(DecodeOptions() != DecodeOptions(preloadAllFrames: true))
        #expect(DecodeOptions() != DecodeOptions(frameBufferLimitBytes: 1))
        #expect(Self.code { try DecodeOptions(frameBufferLimitBytes: -1).validate() } == .invalidArgument)
        let decoder = try CountingSource(frameCount: 2).decoder(bufferFrames: 1)
        #expect(
            Self.code { _ = try ImageCoding.AnimatedFrameBuffer(decoder: decoder, capacity: 0) } == .invalidArgument)
    }

    /// The code of the error `body` throws; nil when it throws none.
    static func code(_ body: () throws -> Void) -> ImageError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? ImageError)?.code
        }
    }
}

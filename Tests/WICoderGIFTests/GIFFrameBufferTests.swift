import Foundation
import Testing
import WICore
import WICoderGIF

/// A long, large animation decoded on demand: the frame buffer bounds what it holds, however many frames it has.
@Suite struct GIFFrameBufferTests {
    static let side = 1000
    static let frameCount = 500
    static let frameBytes = side * side * 4

    /// Where frame i's 10x10 square lies on the 1000x1000 canvas (disposal none: every square stays).
    static func origin(_ index: Int) -> (x: Int, y: Int) { ((index * 37) % 990, (index * 53) % 990) }

    /// 500 frames of 1000x1000 in about 40 KB: each frame is one 10x10 square of colour i % 4 (red, green, blue,
    /// white) left on the canvas.
    static let longAnimation: Data = {
        var gif = GIFBuilder(width: side, height: side)
        gif.netscapeLoops = 0
        for index in 0..<frameCount {
            let (x, y) = origin(index)
            gif.frames.append(
                .init(
                    x: x, y: y, width: 10, height: 10,
                    indices: [UInt8](repeating: UInt8(index % 4), count: 100), control: (4, 1, nil)))
        }
        return gif.build()
    }()

    static let colours: [RGBAColor] = [
        .init(red: 255, green: 0, blue: 0, alpha: 255), .init(red: 0, green: 255, blue: 0, alpha: 255),
        .init(red: 0, green: 0, blue: 255, alpha: 255), .init(red: 255, green: 255, blue: 255, alpha: 255),
    ]

    @Test func aLongLargeAnimationPlaysThroughInsideItsBound() throws {
        let data = Self.longAnimation
        #expect(data.count < 64 * 1024)
        let image = try GIFCoder().decode(data, options: .init())
        let buffer = try #require(image.frameBuffer)
        #expect(image.frameCount == 500 && image.size == PixelSize(width: 1000, height: 1000) && image.loopCount == 0)
        // The default 32 MiB buffer holds 8 frames of 4 MB; keyframes may take a quarter of it (2 canvases).
        #expect(buffer.capacity == 8 && buffer.frameBytes == Self.frameBytes)
        let bound = Self.frameBytes * (1 + 8 + 2 + 1)
        #expect(image.cost == bound)
        var painted = Set<Int>()
        for loop in 0..<2 {
            for index in 0..<Self.frameCount {
                let frame = try image.frame(at: index)
                #expect(frame.duration == 0.04)
                let (x, y) = Self.origin(index)
                if loop == 0 { for dy in 0..<10 { for dx in 0..<10 { painted.insert((y + dy) * Self.side + x + dx) } } }
                #expect(frame.pixels.color(x: x + 5, y: y + 5) == Self.colours[index % 4])
                #expect(buffer.heldBytes <= buffer.capacity * Self.frameBytes, "loop \(loop), frame \(index)")
                #expect(buffer.heldBytes + buffer.decoderHeldBytes + Self.frameBytes <= bound)
            }
            // One decode per frame and loop (frame 0, the poster, is never decoded again).
            #expect(buffer.decodeCount == 1 + (loop + 1) * (Self.frameCount - 1))
        }
        let last = try image.frame(at: Self.frameCount - 1).pixels
        let opaque = last.withUnsafeBytes { bytes in stride(from: 3, to: bytes.count, by: 4).count { bytes[$0] == 255 }
        }
        #expect(opaque == painted.count)
    }

    @Test func preloadingTheLongAnimationIsRefusedByThePixelLimit() throws {
        let data = Self.longAnimation
        let error = #expect(throws: ImageError.self) {
            try GIFCoder().decode(data, options: .init(preloadAllFrames: true))
        }
        #expect(error?.code == .pixelLimitExceeded)
        let first = try GIFCoder().decode(data, options: .init(firstFrameOnly: true))
        #expect(first.frameCount == 1 && first.frameBuffer == nil)
        let thumbnail = try GIFCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 100, height: 100)))
        #expect(thumbnail.size == PixelSize(width: 100, height: 100) && thumbnail.flags.contains(.thumbnail))
        // 40 KB frames: the 32 MiB buffer holds all of them.
        #expect(try #require(thumbnail.frameBuffer).capacity == DecodeOptions.defaultFrameBufferLimitBytes / 40_000)
    }

    /// A later frame whose data runs short shows the rows that decoded, the rest transparent, as browsers do.
    @Test func aLaterFrameWhoseDataRunsShortKeepsItsRows() throws {
        var gif = GIFBuilder(width: 4, height: 4)
        for index in 0..<4 {
            gif.frames.append(
                .init(
                    x: index, y: 0, width: 1, height: 4, indices: [UInt8](repeating: UInt8(index), count: 4),
                    control: (10, 1, nil)))
        }
        var bytes = [UInt8](gif.build())
        // Header and screen (13 bytes) and the 4-colour palette (12), then four records of the same length, each a
        // graphic control extension (8 bytes) and an image descriptor: frame 2 claims 8 rows where its data holds 4.
        let record = (bytes.count - 25 - 1) / 4
        #expect(bytes[25 + 2 * record + 8] == 0x2C)
        bytes[25 + 2 * record + 8 + 7] = 8
        bytes[8] = 8  // the logical screen grows too, so the frame stays inside it
        for options in [DecodeOptions(), DecodeOptions(preloadAllFrames: true)] {
            let image = try GIFCoder().decode(Data(bytes), options: options)
            #expect(image.frameCount == 4 && image.size == PixelSize(width: 4, height: 8))
            #expect((image.frameBuffer == nil) == options.preloadAllFrames)
            let frames = try image.frames
            // Column 2: rows 0-3 blue from frame 2, rows 4-7 transparent; frame 3 draws on.
            #expect(
                frames.map { Pixels.letters($0.pixels) } == [
                    "R.../R.../R.../R.../..../..../..../....",
                    "RG../RG../RG../RG../..../..../..../....",
                    "RGB./RGB./RGB./RGB./..../..../..../....",
                    "RGBW/RGBW/RGBW/RGBW/..../..../..../....",
                ])
            #expect(image.flags.contains(.incomplete) == options.preloadAllFrames)
        }
    }
}

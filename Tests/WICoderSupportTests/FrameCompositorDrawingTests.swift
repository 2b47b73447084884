import Synchronization
import Testing
import WICore
import WICoderSupport
import WITestSupport

/// Frames that write one opaque grey level per frame straight onto the canvas, counting both ways of producing them.
private final class InPlaceFrames: ImageCoding.AnimationFrameSource {
    let frames: [ImageCoding.AnimationFrameInfo]
    let draws = Mutex<[Int]>([])
    let pixelCalls = Mutex(0)

    init(frames: [ImageCoding.AnimationFrameInfo]) {
        self.frames = frames
    }

    static func level(_ index: Int) -> UInt8 { UInt8(40 + index * 20) }

    func pixels(ofFrame index: Int) throws(ImageError) -> PixelBuffer {
        pixelCalls.withLock { $0 += 1 }
        let info = frames[index]
        let v = Self.level(index)
        return try PixelBuffer(
            width: info.width, height: info.height, format: .rgba8,
            bytes: Array([[UInt8]](repeating: [v, v, v, 255], count: info.width * info.height).joined()))
    }

    func draw(frame index: Int, info: ImageCoding.AnimationFrameInfo, onto canvas: inout PixelBuffer) throws(ImageError)
    {
        draws.withLock { $0.append(index) }
        let v = Self.level(index)
        let rowBytes = canvas.bytesPerRow
        try canvas.withUnsafeMutableBytes { bytes in
            for y in info.y..<(info.y + info.height) {
                for x in info.x..<(info.x + info.width) {
                    for c in 0..<3 { bytes[y * rowBytes + x * 4 + c] = v }
                    bytes[y * rowBytes + x * 4 + 3] = 255
                }
            }
        }
    }
}

@Suite struct FrameCompositorDrawingTests {
    static let canvas = PixelSize(width: 4, height: 1)
    static let frames = [
        ImageCoding.AnimationFrameInfo(x: 0, y: 0, width: 2, height: 1, disposal: .none),
        ImageCoding.AnimationFrameInfo(x: 1, y: 0, width: 2, height: 1, disposal: .previous),
        ImageCoding.AnimationFrameInfo(x: 2, y: 0, width: 2, height: 1, disposal: .background),
        ImageCoding.AnimationFrameInfo(x: 3, y: 0, width: 1, height: 1, disposal: .none),
        ImageCoding.AnimationFrameInfo(x: 1, y: 0, width: 1, height: 1, disposal: .none),
    ]

    static func greys(_ frame: PixelBuffer) -> [UInt8] {
        (0..<canvas.width).map { frame.color(x: $0, y: 0).alpha == 0 ? 0 : frame.color(x: $0, y: 0).red }
    }

    @Test func drawingInPlacePlaysLikeDecodedFramesInAnyOrder() throws {
        let source = InPlaceFrames(frames: Self.frames)
        var inPlace = try ImageCoding.FrameCompositor(canvasSize: Self.canvas, frames: Self.frames)
        var decoded = try ImageCoding.FrameCompositor(canvasSize: Self.canvas, frames: Self.frames)
        // Levels 40, 60, 80, 100, 120 for frames 0 to 4; 0 is transparent.
        let expected: [[UInt8]] = [
            [40, 40, 0, 0], [40, 60, 60, 0], [40, 40, 80, 80], [40, 40, 0, 100],
            [40, 120, 0, 100],
        ]
        for index in [4, 0, 1, 2, 3, 2, 4] {
            let drawn = try inPlace.frame(at: index) { position, info, canvas throws(ImageError) in
                try source.draw(frame: position, info: info, onto: &canvas)
            }
            let plain = try decoded.frame(at: index) { i throws(ImageError) in try source.pixels(ofFrame: i) }
            #expect(Self.greys(drawn) == expected[index], "frame \(index)")
            #expect(drawn == plain, "frame \(index)")
        }
    }

    @Test func decoderDrawsThroughTheSourceAndTheDefaultDrawsItsPixels() throws {
        let source = InPlaceFrames(frames: Self.frames)
        let decoder = try ImageCoding.CompositedAnimationDecoder(
            canvasSize: Self.canvas, frames: Self.frames, loopCount: 0,
            source: source)
        #expect(Self.greys(try decoder.frame(at: 4)) == [40, 120, 0, 100])
        #expect(source.draws.withLock { $0 } == [0, 1, 2, 3, 4])
        #expect(source.pixelCalls.withLock { $0 } == 0)

        // The protocol's default `draw` is the compositor's draw of `pixels(ofFrame:)`, size check included.
        struct PixelsOnly: ImageCoding.AnimationFrameSource {
            let size: Int
            func pixels(ofFrame index: Int) throws(ImageError) -> PixelBuffer {
                try PixelBuffer(
                    width: size, height: 1, format: .rgba8,
                    bytes: Array([[UInt8]](repeating: [7, 8, 9, 255], count: size).joined()))
            }
        }
        var canvas = try PixelBuffer(width: 4, height: 1, format: .rgba8)
        try PixelsOnly(size: 2).draw(frame: 0, info: Self.frames[1], onto: &canvas)
        #expect(canvas.packedBytes() == [0, 0, 0, 0, 7, 8, 9, 255, 7, 8, 9, 255, 0, 0, 0, 0])
        #expect(throws: ImageError.self) { try PixelsOnly(size: 3).draw(frame: 0, info: Self.frames[1], onto: &canvas) }
    }
}

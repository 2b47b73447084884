import Testing
import WICore
import WITransform

@Suite struct FramesAndOrientationTests {
    static func transformers() throws -> [any ImageTransformer] {
        try [
            ResizeTransformer(width: 20, height: 20), ResizeTransformer(width: 30, height: 20, mode: .aspectFit),
            ResizeTransformer(width: 20, height: 30, mode: .aspectFill), ResizeTransformer(width: 80, height: 80),
            CropTransformer(x: 0, y: 0, width: 40, height: 30), FlipTransformer(horizontal: true),
            RotateTransformer(degrees: 0), RotateTransformer(degrees: 360, fitsCanvas: true),
            RotateTransformer(degrees: 10, fitsCanvas: true),
            RoundCornerTransformer(radius: 3, borderWidth: 1, borderColor: .white),
            TintTransformer(color: .white, blendMode: .multiply), BlurTransformer(radius: 1.5),
            PipelineTransformer([ResizeTransformer(width: 20, height: 20), BlurTransformer(radius: 1)]),
        ]
    }

    /// A top-marked image (red top quarter, blue below) stays top-marked: nothing turns it upside down.
    @Test(arguments: 0..<13)
    func nothingTurnsTheImageUpsideDown(_ index: Int) throws {
        let all = try Self.transformers()
        #expect(all.count == 13)
        let transformer = all[index]
        let output = try transformer.transform(try TestPixels.topMarked())
        let top = output.pixels.color(x: output.width / 2, y: output.height / 10 + 1)
        let bottom = output.pixels.color(x: output.width / 2, y: output.height * 8 / 10)
        #expect(top.red > 200 && top.blue < 60, "\(transformer.key) top \(top)")
        #expect(bottom.blue > 200 && bottom.red < 60, "\(transformer.key) bottom \(bottom)")
    }

    @Test func everyFrameIsTransformed() throws {
        let colors = [TestPixels.red, TestPixels.green, TestPixels.blue]
        let frames = try colors.enumerated().map { index, color in
            ImageFrame(
                pixels: try TestPixels.buffer(width: 6, height: 4) { x, y in x == 0 && y == 0 ? .white : color },
                duration: Double(index + 1) / 10)
        }
        let animation = Image(frames: frames, loopCount: 3, format: .gif)
        let output = try PipelineTransformer([
            FlipTransformer(horizontal: true), try CropTransformer(x: 2, y: 0, width: 4, height: 4),
        ])
        .transform(animation)
        #expect(output.frameCount == 3)
        #expect(output.durations == [0.1, 0.2, 0.3])
        #expect(output.loopCount == 3 && output.format == .gif)
        for (frame, color) in try zip(output.frames, colors) {
            #expect(frame.pixels.size == PixelSize(width: 4, height: 4))
            #expect(frame.pixels.color(x: 3, y: 0) == .white)  // (0, 0) flipped to (5, 0), cropped to (3, 0)
            #expect(frame.pixels.color(x: 0, y: 0) == color)
        }
    }
}

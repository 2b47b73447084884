import Testing
import WICore
import WITestSupport
import WITransform

/// Trim by a corner's colour: the box thumbor's scan finds, on every frame, with a tolerance.
@Suite struct TrimTransformerTests {
    /// 12x8 of `border` with a 4x3 block of `inner` at (5, 2), and one pixel `near` the border's colour at (1, 6).
    static func framed(border: RGBAColor, inner: RGBAColor, near: RGBAColor) throws -> PixelBuffer {
        var bytes: [UInt8] = []
        for y in 0..<8 {
            for x in 0..<12 {
                let color = (5..<9).contains(x) && (2..<5).contains(y) ? inner : (x == 1 && y == 6) ? near : border
                bytes += [color.red, color.green, color.blue, color.alpha]
            }
        }
        return try PixelBuffer(width: 12, height: 8, format: .rgba8, bytes: bytes)
    }

    @Test func keepsTheBoxOfWhatDiffersFromTheCorner() throws {
        let white = RGBAColor(red: 255, green: 255, blue: 255)
        let red = RGBAColor(red: 200, green: 0, blue: 0)
        let nearWhite = RGBAColor(red: 250, green: 250, blue: 250)
        let source = try Self.framed(border: white, inner: red, near: nearWhite)
        // Tolerance 0: the near-white pixel counts (distance sqrt(3 x 25) = 8.7), so the box reaches it.
        let strict = try TrimTransformer(corner: .topLeft, tolerance: 0)
        #expect(try strict.window(in: source).map { [$0.x, $0.y, $0.width, $0.height] } == [1, 2, 8, 5])
        // Tolerance 9: it is border; the box is the red block alone.
        let loose = try TrimTransformer(corner: .bottomRight, tolerance: 9)
        #expect(try loose.window(in: source).map { [$0.x, $0.y, $0.width, $0.height] } == [5, 2, 4, 3])
        // Every frame is cut by the first frame's box.
        let animation = Image(
            frames: [ImageFrame(pixels: source, duration: 0.1), ImageFrame(pixels: source, duration: 0.1)],
            format: .gif)
        let trimmed = try loose.transform(animation)
        #expect(trimmed.frameCount == 2 && trimmed.size == PixelSize(width: 4, height: 3))
        #expect(try trimmed.frame(at: 1).pixels.color(x: 0, y: 0) == red)
        // Nothing differs: nothing is cut.
        let plain = try PixelBuffer(width: 3, height: 3, format: .rgba8, bytes: Array(repeating: 255, count: 36))
        #expect(try strict.window(in: plain) == nil)
        #expect(try strict.transform(Image(pixels: plain)).size == PixelSize(width: 3, height: 3))
    }

    @Test func keysAndChecks() throws {
        #expect(try TrimTransformer(corner: .bottomRight, tolerance: 10).key == "Trim(bottom-right,10)")
        #expect(try TrimTransformer().key == "Trim(top-left,0)")
        try expectInvalid("trim tolerance must be in 0...510, got 511") { try TrimTransformer(tolerance: 511) }
    }
}

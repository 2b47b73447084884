import Testing
import WICore

@Suite struct ImageOrientationTests {
    /// A 3x2 buffer whose pixel at (x, y) has red = 10*x + y + 1 (so every pixel is distinct).
    private func marked() throws -> PixelBuffer {
        var bytes: [UInt8] = []
        for y in 0..<2 { for x in 0..<3 { bytes += [UInt8(10 * x + y + 1), 0, 0, 255] } }
        return try PixelBuffer(width: 3, height: 2, format: .rgba8, bytes: bytes)
    }

    private func reds(_ buffer: PixelBuffer) -> [[UInt8]] {
        (0..<buffer.height).map { y in (0..<buffer.width).map { x in buffer.color(x: x, y: y).red } }
    }

    // Stored:     1 11 21
    //             2 12 22
    @Test(arguments: [
        (ImageOrientation.up, [[1, 11, 21], [2, 12, 22]] as [[UInt8]]),
        (.upMirrored, [[21, 11, 1], [22, 12, 2]]),
        (.down, [[22, 12, 2], [21, 11, 1]]),
        (.downMirrored, [[2, 12, 22], [1, 11, 21]]),
        (.leftMirrored, [[1, 2], [11, 12], [21, 22]]),
        (.right, [[2, 1], [12, 11], [22, 21]]),
        (.rightMirrored, [[22, 21], [12, 11], [2, 1]]),
        (.left, [[21, 22], [11, 12], [1, 2]]),
    ])
    func turnsUpright(orientation: ImageOrientation, expected: [[UInt8]]) throws {
        let upright = try marked().applying(orientation)
        #expect(reds(upright) == expected)
        #expect(upright.width == (orientation.swapsDimensions ? 2 : 3))
    }
}

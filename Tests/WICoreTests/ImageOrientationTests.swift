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

    /// Past one 64x64 tile in both directions and off its grid (130x70), at 8 and 16 bits: every pixel lands where
    /// the EXIF rule says, each sample intact (the pixel at (x, y) carries x and y in its samples).
    @Test(arguments: ImageOrientation.allCases)
    func largeBuffersLandPixelForPixel(orientation: ImageOrientation) throws {
        let (w, h) = (130, 70)
        for wide in [false, true] {
            var samples: [UInt16] = []
            for y in 0..<h { for x in 0..<w { samples += [UInt16(x), UInt16(y), UInt16(x ^ y), UInt16(x &+ 3 * y)] } }
            let bytes =
                wide ? samples.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } : samples.map { UInt8($0 & 0xFF) }
            let source = try PixelBuffer(width: w, height: h, format: wide ? .rgba16 : .rgba8, bytes: bytes)
            let upright = try source.applying(orientation)
            let (ow, oh) = orientation.swapsDimensions ? (h, w) : (w, h)
            #expect(upright.width == ow && upright.height == oh && upright.format == source.format)
            let out = upright.packedBytes()
            let size = wide ? 8 : 4
            var misplaced = 0
            for y in 0..<h {
                for x in 0..<w {
                    // EXIF's rule as an affine map, by orientation value: displayed x and y from stored x and y and
                    // the last column and row (x, y, last column, last row coefficients for each).
                    let map: [[Int]] = [
                        [], [1, 0, 0, 0, 0, 1, 0, 0], [-1, 0, 1, 0, 0, 1, 0, 0], [-1, 0, 1, 0, 0, -1, 0, 1],
                        [1, 0, 0, 0, 0, -1, 0, 1], [0, 1, 0, 0, 1, 0, 0, 0], [0, -1, 0, 1, 1, 0, 0, 0],
                        [0, -1, 0, 1, -1, 0, 1, 0], [0, 1, 0, 0, -1, 0, 1, 0],
                    ]
                    let m = map[orientation.rawValue]
                    let dx = m[0] * x + m[1] * y + m[2] * (w - 1) + m[3] * (h - 1)
                    let dy = m[4] * x + m[5] * y + m[6] * (w - 1) + m[7] * (h - 1)
                    let from = (y * w + x) * size
                    let to = (dy * ow + dx) * size
                    if Array(out[to..<to + size]) != Array(bytes[from..<from + size]) { misplaced += 1 }
                }
            }
            #expect(misplaced == 0, "\(orientation), \(wide ? 16 : 8) bits")
        }
    }
}

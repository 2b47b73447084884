import Testing
import WICore
@testable import WITransform

/// The whole-factor box ahead of the area average on large thumbnail reductions: exact block means, partial blocks at the
/// edges, and the thumbnail it leads to against WICore's exact area average.
@Suite struct BoxReductionTests {
    @Test func factorsLeavePixmanAtLeastTwo() {
        #expect(
            [1.0, 2.0, 3.99, 4.0, 5.99, 6.0, 8.0, 20.5].map(BoxReduction.factor(for:)) == [1, 1, 1, 2, 2, 3, 4, 10])
        // Capped, so that a block's sum (255 x 256 x 256 at most) fits the UInt32 column sums: 20000 -> 1 is a
        // box of 256 and the area average over the remaining 78.
        #expect([511.99, 512.0, 513.0, 20_000, 32_767].map(BoxReduction.factor(for:)) == [255, 256, 256, 256, 256])
    }

    @Test func factorsBeyondTheSumsRangeAreInvalidArguments() throws {
        let source = try TestPixels.buffer(width: 4, height: 4) { _, _ in .white }
        for (kx, ky) in [(257, 1), (1, 257), (0, 2)] {
            let error = #expect(throws: ImageError.self) { try BoxReduction.reduced(source, kx: kx, ky: ky) }
            #expect(error?.code == .invalidArgument)
        }
    }

    @Test func blocksAreMeansRoundedToNearestAndEdgeBlocksAverageWhatTheyHave() throws {
        // 5x3, red = x * 10 + y, green = 255 - x, blue = y * 100, alpha = 255: by 2x2 into 3x2.
        let source = try TestPixels.buffer(width: 5, height: 3) { x, y in
            RGBAColor(red: UInt8(x * 10 + y), green: UInt8(255 - x), blue: UInt8(y * 100))
        }
        let reduced = try BoxReduction.reduced(source, kx: 2, ky: 2)
        #expect(reduced.size == PixelSize(width: 3, height: 2))
        #expect(reduced.format == .rgba8)
        // Block (0,0): red 0,10,1,11 -> 5.5 -> 6; green 255,254 x2 -> 254.5 -> 255 (rounded half up); blue 0,0,100,100 -> 50.
        #expect(reduced.color(x: 0, y: 0) == RGBAColor(red: 6, green: 255, blue: 50, alpha: 255))
        // Block (2,0): one column (x = 4): red 40, 41 -> 40.5 -> 41; green 251; blue 50.
        #expect(reduced.color(x: 2, y: 0) == RGBAColor(red: 41, green: 251, blue: 50, alpha: 255))
        // Block (1,1): one row (y = 2): red 22, 32 -> 27; green 253, 252 -> 252.5 -> 253; blue 200.
        #expect(reduced.color(x: 1, y: 1) == RGBAColor(red: 27, green: 253, blue: 200, alpha: 255))
        // Block (2,1): the corner pixel alone.
        #expect(reduced.color(x: 2, y: 1) == RGBAColor(red: 42, green: 251, blue: 200, alpha: 255))
    }

    @Test func thumbnailsStayWithinOneLevelOfTheAreaAverageOnWholeFactors() throws {
        // 240x120 -> 30x15: a factor of 8, box 4x4 then the area average over 2.
        let image = try TestPixels.buffer(width: 240, height: 120) { x, y in
            RGBAColor(red: UInt8(x), green: UInt8(y * 2), blue: UInt8((x * y) % 256))
        }
        #expect(try largestDifference(image, to: PixelSize(width: 30, height: 15)) <= 1)
    }

    @Test func thumbnailsOfUnevenSizesStayCloseToTheAreaAverage() throws {
        // 1003x517 -> 160x83: factors 6.27 and 6.23, boxes of 3 with partial blocks at the right and bottom edges.
        let image = try TestPixels.buffer(width: 1003, height: 517) { x, y in
            RGBAColor(red: UInt8(x / 4), green: UInt8(y / 3), blue: UInt8((x + y) / 6 % 256), alpha: UInt8(128 + y / 5))
        }
        #expect(try largestDifference(image, to: PixelSize(width: 160, height: 83)) <= 2)
    }

    /// The largest channel difference between PixmanResampler's thumbnail (with the box) and the exact area average.
    private func largestDifference(_ image: PixelBuffer, to size: PixelSize) throws -> Int {
        let ours = try PixmanResampler().resample(image, to: size)
        let reference = try ImageCoding.AreaAverageResampler().resample(image, to: size)
        #expect(ours.size == size)
        var largest = 0
        for y in 0..<size.height {
            for x in 0..<size.width {
                let a = ours.color(x: x, y: y)
                let b = reference.color(x: x, y: y)
                largest = max(
                    largest, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)),
                    abs(Int(a.blue) - Int(b.blue)), abs(Int(a.alpha) - Int(b.alpha)))
            }
        }
        return largest
    }
}

import Testing
import WICore
import WITestSupport
@testable import WITransform

/// The thumbnail path's separable area average: exact block means on whole factors, coverage weights on
/// fractional ones and on a box reduction's cut edge, against a Double reference of the area integral.
@Suite struct AreaReductionTests {
    @Test func weightsSumToOneAndCoverTheRegion() {
        // 10 pixels over 4 outputs: 2.5 each; output 1 covers [2.5, 5): half of pixel 2, pixels 3 and 4.
        let axis = AreaReduction.Axis(source: 10, extent: 10, output: 4)
        #expect(axis.taps == 3)
        #expect(axis.starts == [0, 2, 5, 7])
        // Cumulative coverage 0.2, 0.6, 1 of 16384 rounds to 3277, 9830, 16384: steps 3277, 6553, 6554.
        #expect(Array(axis.weights[3..<6]) == [3277, 6553, 6554])
        for i in 0..<4 { #expect(axis.weights[i * 3..<i * 3 + 3].reduce(0, +) == 16384) }
        // 11 into 3 (3.67 each): the middle reads 5 pixels, the last only 4, so its start moves back one with a
        // leading zero weight and every tap stays inside the row.
        let shifted = AreaReduction.Axis(source: 11, extent: 11, output: 3)
        #expect(shifted.taps == 5)
        #expect(shifted.starts == [0, 3, 6])
        // Cumulative coverage 2/11, 5/11, 8/11, 1 of 16384 rounds to 2979, 7447, 11916, 16384.
        #expect(Array(shifted.weights[10..<15]) == [0, 2979, 4468, 4469, 4468])
        // A box reduction's cut edge: 7 reduced pixels whose last covers half a block (extent 6.5) into 2.
        let cut = AreaReduction.Axis(source: 7, extent: 6.5, output: 2)
        #expect(cut.starts == [0, 3])
        // [3.25, 6.5): 0.75, 1, 1 and 0.5 of 3.25 pixels.
        #expect(Array(cut.weights[4..<8]) == [3781, 5041, 5041, 2521])
    }

    @Test func wholeFactorsGiveBlockMeansRoundedHalfUp() throws {
        // 8x4 -> 2x1: blocks of 4x4; red = x + 16 y, green = 255 - 3 x, blue = 7 y, alpha = 255.
        let source = try TestPixels.buffer(width: 8, height: 4) { x, y in
            RGBAColor(red: UInt8(x + 16 * y), green: UInt8(255 - 3 * x), blue: UInt8(7 * y))
        }
        var output = try PixelBuffer(width: 2, height: 1, format: .rgba8)
        try AreaReduction.reduce(source, extent: (8, 4), into: &output)
        // Block 0: red mean 1.5 + 24 = 25.5 -> 26; green 255 - 4.5 = 250.5 -> 251; blue 10.5 -> 11.
        #expect(output.color(x: 0, y: 0) == RGBAColor(red: 26, green: 251, blue: 11, alpha: 255))
        // Block 1: red 5.5 + 24 = 29.5 -> 30; green 255 - 16.5 = 238.5 -> 239; blue 11.
        #expect(output.color(x: 1, y: 0) == RGBAColor(red: 30, green: 239, blue: 11, alpha: 255))
    }

    @Test func theSameSizeIsACopy() throws {
        let source = try TestPixels.buffer(width: 13, height: 7) { x, y in
            RGBAColor(red: UInt8(x * 19 % 256), green: UInt8(y * 37), blue: UInt8((x ^ y) * 9), alpha: 255)
        }
        var output = try PixelBuffer(width: 13, height: 7, format: .rgba8)
        try AreaReduction.reduce(source, extent: (13, 7), into: &output)
        for y in 0..<7 {
            for x in 0..<13 { #expect(output.color(x: x, y: y) == source.color(x: x, y: y)) }
        }
    }

    @Test(arguments: [
        (97, 61, 97.0, 61.0, 40, 25),  // 2.4x: fractional on both axes
        (300, 11, 300.0, 11.0, 77, 3),  // 3.9x and 3.7x
        (251, 160, 250.25, 159.5, 64, 41),  // a box reduction's cut edges (1001 / 4, 638 / 4)
        (64, 64, 64.0, 64.0, 1, 1),  // everything into one pixel
        (5, 200, 5.0, 200.0, 5, 57),  // one axis kept
        (11, 11, 11.0, 11.0, 3, 3),  // starts moved back at the end (see weightsSumToOneAndCoverTheRegion)
    ])
    func premultipliedResultsStayWithinOneLevelOfTheAreaIntegral(
        _ width: Int, _ height: Int, _ extentWidth: Double, _ extentHeight: Double, _ outWidth: Int, _ outHeight: Int
    ) throws {
        var random = SeededRandom(seed: UInt64(width * 1000 + height))
        var bytes: [UInt8] = []
        for _ in 0..<width * height {
            let alpha = UInt8(truncatingIfNeeded: random.next())
            for _ in 0..<3 { bytes.append(UInt8(random.next() % (UInt64(alpha) + 1))) }
            bytes.append(alpha)
        }
        let source = try PixelBuffer(width: width, height: height, format: .premultipliedRGBA8, bytes: bytes)
        var output = try PixelBuffer(width: outWidth, height: outHeight, format: .premultipliedRGBA8)
        try AreaReduction.reduce(source, extent: (extentWidth, extentHeight), into: &output)
        let got = output.withUnsafeBytes { Array($0) }
        let outRow = output.bytesPerRow
        let sx = extentWidth / Double(outWidth)
        let sy = extentHeight / Double(outHeight)
        var largest = 0.0
        for j in 0..<outHeight {
            for i in 0..<outWidth {
                var sums = [Double](repeating: 0, count: 4)
                let x0 = Double(i) * sx
                let x1 = x0 + sx
                let y0 = Double(j) * sy
                let y1 = y0 + sy
                for y in Int(y0)..<min(height, Int(y1.rounded(.up))) {
                    let wy = min(y1, Double(y + 1)) - max(y0, Double(y))
                    for x in Int(x0)..<min(width, Int(x1.rounded(.up))) {
                        let w = wy * (min(x1, Double(x + 1)) - max(x0, Double(x))) / (sx * sy)
                        for c in 0..<4 { sums[c] += w * Double(bytes[(y * width + x) * 4 + c]) }
                    }
                }
                let pixel = got[(j * outRow + i * 4)..<(j * outRow + i * 4 + 4)].map(Int.init)
                for c in 0..<4 { largest = max(largest, abs(Double(pixel[c]) - sums[c])) }
                #expect(pixel[0] <= pixel[3] && pixel[1] <= pixel[3] && pixel[2] <= pixel[3])
            }
        }
        #expect(largest <= 1, "largest difference \(largest)")
    }

    @Test func opaqueSourcesGiveOpaqueThumbnailsWithTheSamePixels() throws {
        // A coder's opaque pixels (JPEG) are averaged without an alpha scan or an unpremultiply pass: the same bytes
        // as an unmarked copy's, and the result marked opaque for the next step.
        var marked = try TestPixels.buffer(width: 1003, height: 517) { x, y in
            RGBAColor(red: UInt8(x % 256), green: UInt8(y % 256), blue: UInt8((x * y) % 251), alpha: 255)
        }
        let unmarked = marked
        marked.isKnownOpaque = true
        let size = PixelSize(width: 160, height: 83)
        let fast = try Resampling.resized(marked, to: size, boxFirst: true)
        let scanned = try Resampling.resized(unmarked, to: size, boxFirst: true)
        #expect(fast.isKnownOpaque)
        #expect(!scanned.isKnownOpaque)
        #expect(fast.withUnsafeBytes { Array($0) } == scanned.withUnsafeBytes { Array($0) })
        #expect(fast.isOpaque && scanned.isOpaque)
    }

    @Test func bothReductionsStopWhenTheirJobIsCancelled() async throws {
        let pool = WorkerPool(name: "test.reduction", threads: 1)
        defer { pool.shutdown() }
        let source = try PixelBuffer(width: 1200, height: 800, format: .premultipliedRGBA8)
        let area = await CancelledJob.error(on: pool) { () throws(ImageError) in
            var output = try PixelBuffer(width: 700, height: 500, format: .premultipliedRGBA8)
            try AreaReduction.reduce(source, extent: (1200, 800), into: &output)
        }
        #expect(area?.code == .cancelled)
        let box = await CancelledJob.error(on: pool) { () throws(ImageError) in
            try BoxReduction.reduced(source, kx: 2, ky: 2)
        }
        #expect(box?.code == .cancelled)
        // Not cancelled, the same call finishes: 1200x800 transparent pixels into 700x500.
        let reduced = try await pool.runCancellable { () throws(ImageError) in
            var output = try PixelBuffer(width: 700, height: 500, format: .premultipliedRGBA8)
            try AreaReduction.reduce(source, extent: (1200, 800), into: &output)
            return output
        }
        #expect(reduced.size == PixelSize(width: 700, height: 500))
        #expect(reduced.withUnsafeBytes { $0.allSatisfy { $0 == 0 } })
    }

    @Test func thumbnailsMatchTheExactAreaAverageOnFractionalFactors() throws {
        // 1003x517 -> 160x83 through PixmanResampler: boxes of 3 with cut edges, then the separable average.
        let image = try TestPixels.buffer(width: 1003, height: 517) { x, y in
            RGBAColor(red: UInt8(x / 4), green: UInt8(y / 3), blue: UInt8((x + y) / 6 % 256), alpha: 255)
        }
        let ours = try PixmanResampler().resample(image, to: PixelSize(width: 160, height: 83))
        let reference = try ImageCoding.AreaAverageResampler().resample(image, to: PixelSize(width: 160, height: 83))
        var largest = 0
        for y in 0..<83 {
            for x in 0..<160 {
                let a = ours.color(x: x, y: y)
                let b = reference.color(x: x, y: y)
                largest = max(
                    largest, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)),
                    abs(Int(a.blue) - Int(b.blue)), abs(Int(a.alpha) - Int(b.alpha)))
            }
        }
        #expect(largest <= 1)
    }
}

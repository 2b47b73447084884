import WICore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A Gaussian approximated by three box blurs of a fractional width per direction (Gwosdek et al., "Theoretical
/// foundations of Gaussian convolution by extended box filtering", 2011; the method of Pillow's GaussianBlur).
///
/// The one hand-written filter in WITransform: pixman's separable convolution costs one multiply per kernel tap
/// (61 taps at radius 10) and measured 577 ms for radius 10 on 1000x1000 (rows then columns), against 20 ms for
/// these running sums, whose cost does not grow with the radius (release build, docs/PERFORMANCE.md). Works in `Float`, so the
/// six passes round once.
enum BoxBlur {
    static let passes = 3

    /// Blurs premultiplied 8-bit `source` into `output` (same size, a buffer nothing else reads yet).
    ///
    /// Rows are blurred one at a time; columns all at once, a running sum of whole rows, so memory is read in order.
    static func blur(_ source: PixelBuffer, into output: PixelBuffer, sigma: Double) throws(ImageError) {
        let width = source.width
        let height = source.height
        let (whole, fraction) = boxRadius(sigma: sigma)
        let count = width * height
        let (bytes, overflow) = count.multipliedReportingOverflow(by: 2 * MemoryLayout<SIMD4<Float>>.stride)
        guard !overflow, let memory = malloc(max(bytes, 1)) else {
            throw ImageError(.outOfMemory, "cannot allocate \(bytes) bytes for a blur")
        }
        defer { free(memory) }
        var plane = memory.bindMemory(to: SIMD4<Float>.self, capacity: 2 * count)
        var spare = plane + count
        var line = [SIMD4<Float>](repeating: .zero, count: 2 * width)
        var cancelled = false
        line.withUnsafeMutableBufferPointer { line in
            source.withUnsafeBytes { input in
                for y in 0..<height {
                    if y % 32 == 0, WorkerPool.isCancelled {
                        cancelled = true
                        break
                    }
                    let row = input.baseAddress! + y * source.bytesPerRow
                    for x in 0..<width { line[x] = load(row, x) }
                    var a = line.baseAddress!
                    var b = a + width
                    for _ in 0..<passes {
                        boxRow(a, b, count: width, whole: whole, fraction: fraction)
                        swap(&a, &b)
                    }
                    (plane + y * width).update(from: a, count: width)
                }
            }
        }
        if cancelled { try WorkerPool.checkCancellation() }
        for _ in 0..<passes {
            try WorkerPool.checkCancellation()
            boxColumns(plane, spare, width: width, height: height, whole: whole, fraction: fraction)
            swap(&plane, &spare)
        }
        let out = output.storage.bytes
        for y in 0..<height {
            let row = out + y * output.bytesPerRow
            for x in 0..<width { store(plane[y * width + x], row, x) }
        }
    }

    /// One box along a row: each output is the mean of the `2 * whole + 1` inputs around it plus `fraction` of the
    /// next one on each side, edges repeated; a running sum makes the cost independent of the radius.
    @inline(__always)
    private static func boxRow(
        _ input: UnsafeMutablePointer<SIMD4<Float>>,
        _ output: UnsafeMutablePointer<SIMD4<Float>>,
        count: Int, whole: Int, fraction: Float
    ) {
        let last = count - 1
        @inline(__always) func at(_ i: Int) -> SIMD4<Float> { input[min(max(i, 0), last)] }
        let scale = 1 / (Float(2 * whole + 1) + 2 * fraction)
        var sum = Float(whole) * input[0] + Float(max(0, whole - last)) * input[last]
        for j in 0...min(whole, last) { sum += input[j] }
        for i in 0..<count {
            output[i] = (sum + fraction * (at(i - whole - 1) + at(i + whole + 1))) * scale
            sum += at(i + whole + 1) - at(i - whole)
        }
    }

    /// The same box down every column at once: the running sum is a whole row.
    private static func boxColumns(
        _ input: UnsafeMutablePointer<SIMD4<Float>>,
        _ output: UnsafeMutablePointer<SIMD4<Float>>,
        width: Int, height: Int, whole: Int, fraction: Float
    ) {
        let last = height - 1
        @inline(__always) func row(_ i: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
            input + min(max(i, 0), last) * width
        }
        let scale = 1 / (Float(2 * whole + 1) + 2 * fraction)
        var sums = [SIMD4<Float>](repeating: .zero, count: width)
        sums.withUnsafeMutableBufferPointer { sum in
            // The window around row 0: `whole` repeats of row 0 above it, rows 0...whole, repeats of the last row.
            let (first, final) = (row(0), row(last))
            let extra = Float(max(0, whole - last))
            for x in 0..<width { sum[x] = Float(whole) * first[x] + extra * final[x] }
            for j in 0...min(whole, last) {
                let r = row(j)
                for x in 0..<width { sum[x] += r[x] }
            }
            for i in 0..<height {
                let before = row(i - whole - 1)
                let after = row(i + whole + 1)
                let leaving = row(i - whole)
                let target = output + i * width
                for x in 0..<width {
                    target[x] = (sum[x] + fraction * (before[x] + after[x])) * scale
                    sum[x] += after[x] - leaving[x]
                }
            }
        }
    }

    /// The box radius `whole + fraction` whose three passes have variance `sigma^2` (Gwosdek eqs. 7, 11, 14).
    static func boxRadius(sigma: Double) -> (whole: Int, fraction: Float) {
        let variance = sigma * sigma / Double(passes)
        let length = (12 * variance + 1).squareRoot()
        let whole = ((length - 1) / 2).rounded(.down)
        let fraction =
            (2 * whole + 1) * (whole * (whole + 1) - 3 * variance)
            / (6 * (variance - (whole + 1) * (whole + 1)))
        return (Int(whole), Float(fraction))
    }

    @inline(__always)
    private static func load(_ row: UnsafeRawPointer, _ x: Int) -> SIMD4<Float> {
        let p = row.assumingMemoryBound(to: UInt8.self) + x * 4
        return SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3]))
    }

    @inline(__always)
    private static func store(_ value: SIMD4<Float>, _ row: UnsafeMutableRawPointer, _ x: Int) {
        let p = row.assumingMemoryBound(to: UInt8.self) + x * 4
        let v = (value + 0.5).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255))
        // Premultiplied colour never exceeds alpha; float error must not make it.
        let alpha = UInt8(v[3])
        p[0] = min(UInt8(v[0]), alpha)
        p[1] = min(UInt8(v[1]), alpha)
        p[2] = min(UInt8(v[2]), alpha)
        p[3] = alpha
    }
}

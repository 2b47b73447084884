import WICore

/// The thumbnail path's last step after `BoxReduction`: an exact area average in two separable passes on 8-bit
/// premultiplied RGBA, in integers.
///
/// Output pixel (i, j) is the mean of the source region [i sx, (i + 1) sx) x [j sy, (j + 1) sy), each source pixel
/// weighted by how much of it the region covers (sx = extent width / output width, likewise sy; both at least 1).
/// That is what pixman's separable convolution computes with box kernels, but pixman evaluates the whole 2-D
/// footprint for every output pixel (up to 5 x 5 taps after the box) and rounds sample positions to 256 phases;
/// here each axis is one pass (at most 5 taps each), with exact coverage weights.
///
/// Precision: weights are 14-bit fixed point summing to exactly 2^14 per output pixel; the horizontal pass keeps 8
/// fractional bits (`UInt16` rows), the vertical pass rounds to nearest once. The result is within 1 level of the
/// exact average (tested against a Double reference), and colour never exceeds alpha.
enum AreaReduction {
    /// Bits of a weight: 2^14 is 1.
    private static let weightBits = 14

    /// One axis: for each output index, the first source index it reads and its weights, `taps` of them. Near the
    /// end the start moves back and the weights get leading zeros, so that every tap reads a source pixel: the
    /// passes run `taps` multiply-adds per output value with no bounds test.
    struct Axis {
        let starts: [Int]
        /// At most 2^14 each, in 16 bits: a 16 x 16 -> 32-bit product vectorizes on plain SSE2 (`pmaddwd`), where a
        /// 32-bit one needs `pmulld` (SSE4.1) or several shuffles.
        let weights: [UInt16]
        let taps: Int

        /// The coverage of `output` indices over `extent` of `source` pixels (`extent` <= `source`, the pixels
        /// past it are not covered; `extent / output` >= 1).
        init(source: Int, extent: Double, output: Int) {
            let scale = extent / Double(output)
            var taps = 1
            for i in 0..<output {
                let lo = Double(i) * scale
                let hi = min(extent, lo + scale)
                taps = max(taps, min(source, Int(hi.rounded(.up))) - Int(lo.rounded(.down)))
            }
            var starts = [Int](repeating: 0, count: output)
            var weights = [UInt16](repeating: 0, count: output * taps)
            let one = Double(1 << AreaReduction.weightBits)
            for i in 0..<output {
                let lo = Double(i) * scale
                let hi = min(extent, lo + scale)
                let start = min(source - 1, Int(lo.rounded(.down)))
                let end = max(start + 1, min(source, Int(hi.rounded(.up))))
                starts[i] = start
                // The cumulative coverage rounded, each weight the step between two of its values: they sum to
                // exactly 2^14 and none is negative, however many taps there are.
                var covered = 0.0
                var previous = 0
                for k in 0..<(end - start) {
                    covered += max(0, min(hi, Double(start + k + 1)) - max(lo, Double(start + k)))
                    let cumulative =
                        k == end - start - 1
                        ? 1 << AreaReduction.weightBits
                        : min(1 << AreaReduction.weightBits, Int((covered / (hi - lo) * one).rounded()))
                    weights[i * taps + k] = UInt16(cumulative - previous)
                    previous = cumulative
                }
                let shift = start + taps - source
                if shift > 0 {
                    for k in stride(from: taps - 1, through: 0, by: -1) {
                        weights[i * taps + k] = k >= shift ? weights[i * taps + k - shift] : 0
                    }
                    starts[i] = start - shift
                }
            }
            (self.starts, self.weights, self.taps) = (starts, weights, taps)
        }
    }

    /// `source` (premultiplied or opaque RGBA8, rows a multiple of 4 bytes) averaged into `output` (the same kind of
    /// bytes), the source's `extent` (its size, or less when a box reduction's last block is cut by the edge)
    /// covering the whole output. Both scales must be at least 1. Throws `.cancelled` when its pool job is cancelled.
    static func reduce(_ source: PixelBuffer, extent: (width: Double, height: Double), into output: inout PixelBuffer)
        throws(ImageError)
    {
        let width = output.width
        let height = output.height
        let horizontal = Axis(source: source.width, extent: extent.width, output: width)
        let vertical = Axis(source: source.height, extent: extent.height, output: height)
        let rowValues = width * 4
        // The horizontal pass of the source rows the current output row reads, in a ring: a source row is read by
        // consecutive output rows only, and an output row reads at most `vertical.taps` rows.
        let ringRows = vertical.taps
        let ring = UnsafeMutablePointer<UInt16>.allocate(capacity: ringRows * rowValues)
        defer { ring.deallocate() }
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: rowValues)
        defer { sums.deallocate() }
        var nextRow = 0  // the next source row the horizontal pass makes
        let sourceStride = source.bytesPerRow
        let outputStride = output.bytesPerRow
        let hTaps = horizontal.taps
        let vTaps = vertical.taps
        try source.withUnsafeBytes { (input: UnsafeRawBufferPointer) throws(ImageError) in
            let inputBase = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
            try output.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) throws(ImageError) in
                let targetBase = target.baseAddress!.assumingMemoryBound(to: UInt8.self)
                try horizontal.starts.withUnsafeBufferPointer { (hStarts) throws(ImageError) in
                    try horizontal.weights.withUnsafeBufferPointer { (hWeights) throws(ImageError) in
                        try vertical.weights.withUnsafeBufferPointer { (vWeights) throws(ImageError) in
                            let h = Pass(starts: hStarts.baseAddress!, weights: hWeights.baseAddress!, taps: hTaps)
                            for j in 0..<height {
                                // A cancelled request stops within 16 output rows (well under a millisecond each).
                                if j & 15 == 0 { try WorkerPool.checkCancellation() }
                                let first = vertical.starts[j]
                                while nextRow < first + vTaps {
                                    h.row(
                                        inputBase + nextRow * sourceStride,
                                        into: ring + (nextRow % ringRows) * rowValues, width: width)
                                    nextRow += 1
                                }
                                Self.column(
                                    rows: { ring + ((first + $0) % ringRows) * rowValues },
                                    weights: vWeights.baseAddress! + j * vTaps, taps: vTaps,
                                    into: targetBase + j * outputStride, count: rowValues, sums: sums)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The horizontal pass over one source row: `taps` multiply-adds of whole pixels per output pixel, into 8.8
    /// fixed-point values. The usual counts (1 to 4: a scale under 3 after the box reduction) get loops of a
    /// constant length, unrolled, one 4-lane multiply-add per tap.
    private struct Pass {
        let starts: UnsafePointer<Int>
        let weights: UnsafePointer<UInt16>
        let taps: Int

        func row(_ line: UnsafePointer<UInt8>, into slot: UnsafeMutablePointer<UInt16>, width: Int) {
            switch taps {
            case 1: row(line, into: slot, width: width, taps: 1)
            case 2: row(line, into: slot, width: width, taps: 2)
            case 3: row(line, into: slot, width: width, taps: 3)
            case 4: row(line, into: slot, width: width, taps: 4)
            default: row(line, into: slot, width: width, taps: taps)
            }
        }

        @inline(__always)
        private func row(_ line: UnsafePointer<UInt8>, into slot: UnsafeMutablePointer<UInt16>, width: Int, taps: Int) {
            for i in 0..<width {
                let pixel = UnsafeRawPointer(line + starts[i] * 4)
                let w = weights + i * taps
                var sum = SIMD4<UInt32>(repeating: 0)
                for k in 0..<taps {
                    let bytes = pixel.loadUnaligned(fromByteOffset: k * 4, as: SIMD4<UInt8>.self)
                    sum &+= SIMD4<UInt32>(truncatingIfNeeded: bytes) &* UInt32(w[k])
                }
                let rounded = (sum &+ 32) &>> 6
                UnsafeMutableRawPointer(slot + i * 4).storeBytes(
                    of: SIMD4<UInt16>(truncatingIfNeeded: rounded), as: SIMD4<UInt16>.self)
            }
        }
    }

    /// The vertical pass for one output row: the weighted sum of `taps` horizontal-pass rows, rounded to 8 bits.
    /// Two and three rows (the usual counts) are summed in one sweep of the row; more go through `sums`.
    @inline(__always)
    private static func column(
        rows: (Int) -> UnsafeMutablePointer<UInt16>, weights: UnsafePointer<UInt16>, taps: Int,
        into out: UnsafeMutablePointer<UInt8>, count: Int, sums: UnsafeMutablePointer<UInt32>
    ) {
        let half: UInt32 = 1 << 21
        switch taps {
        case 1:
            let (r0, w0) = (rows(0), UInt32(weights[0]))
            for v in 0..<count { out[v] = UInt8(truncatingIfNeeded: (w0 &* UInt32(r0[v]) &+ half) >> 22) }
        case 2:
            let (r0, r1, w0, w1) = (rows(0), rows(1), UInt32(weights[0]), UInt32(weights[1]))
            for v in 0..<count {
                out[v] = UInt8(truncatingIfNeeded: (w0 &* UInt32(r0[v]) &+ w1 &* UInt32(r1[v]) &+ half) >> 22)
            }
        case 3:
            let (r0, r1, r2) = (rows(0), rows(1), rows(2))
            let (w0, w1, w2) = (UInt32(weights[0]), UInt32(weights[1]), UInt32(weights[2]))
            for v in 0..<count {
                let sum = w0 &* UInt32(r0[v]) &+ w1 &* UInt32(r1[v]) &+ w2 &* UInt32(r2[v])
                out[v] = UInt8(truncatingIfNeeded: (sum &+ half) >> 22)
            }
        default:
            sums.update(repeating: 0, count: count)
            for k in 0..<taps {
                let weight = UInt32(weights[k])
                let row = rows(k)
                for v in 0..<count { sums[v] &+= weight &* UInt32(row[v]) }
            }
            for v in 0..<count { out[v] = UInt8(truncatingIfNeeded: (sums[v] &+ half) >> 22) }
        }
    }
}

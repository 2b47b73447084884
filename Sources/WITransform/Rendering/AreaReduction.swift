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
    /// covering the whole output. Both scales must be at least 1.
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
                horizontal.starts.withUnsafeBufferPointer { hStarts in
                    horizontal.weights.withUnsafeBufferPointer { hWeights in
                        vertical.weights.withUnsafeBufferPointer { vWeights in
                            for j in 0..<height {
                                let first = vertical.starts[j]
                                while nextRow < first + vTaps {
                                    let line = inputBase + nextRow * sourceStride
                                    let slot = ring + (nextRow % ringRows) * rowValues
                                    for i in 0..<width {
                                        let pixel = line + hStarts[i] * 4
                                        let w = hWeights.baseAddress! + i * hTaps
                                        var r: UInt32 = 0
                                        var g: UInt32 = 0
                                        var b: UInt32 = 0
                                        var a: UInt32 = 0
                                        for k in 0..<hTaps {
                                            let weight = UInt32(w[k])
                                            let p = pixel + k * 4
                                            r &+= weight &* UInt32(p[0])
                                            g &+= weight &* UInt32(p[1])
                                            b &+= weight &* UInt32(p[2])
                                            a &+= weight &* UInt32(p[3])
                                        }
                                        let out = slot + i * 4
                                        let half: UInt32 = 1 << 5
                                        out[0] = UInt16(truncatingIfNeeded: (r &+ half) >> 6)
                                        out[1] = UInt16(truncatingIfNeeded: (g &+ half) >> 6)
                                        out[2] = UInt16(truncatingIfNeeded: (b &+ half) >> 6)
                                        out[3] = UInt16(truncatingIfNeeded: (a &+ half) >> 6)
                                    }
                                    nextRow += 1
                                }
                                sums.update(repeating: 0, count: rowValues)
                                let w = vWeights.baseAddress! + j * vTaps
                                for k in 0..<vTaps {
                                    let weight = UInt32(w[k])
                                    let row = ring + ((first + k) % ringRows) * rowValues
                                    for v in 0..<rowValues { sums[v] &+= weight &* UInt32(row[v]) }
                                }
                                let out = targetBase + j * outputStride
                                let half: UInt32 = 1 << 21
                                for v in 0..<rowValues { out[v] = UInt8(truncatingIfNeeded: (sums[v] &+ half) >> 22) }
                            }
                        }
                    }
                }
            }
        }
    }
}

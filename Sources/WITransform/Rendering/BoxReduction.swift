import WICore

/// Whole-factor box averaging ahead of the area average on large reductions, as Pillow's `reducing_gap` does: a
/// reduction by 8 becomes a 4x4 box (one add per source byte) and an area average over a factor of 2
/// (`AreaReduction`, or pixman's filter when an axis grows), instead of 9 taps per axis for every output pixel.
///
/// The box keeps the geometry exact: reduced pixel i covers source pixels [i k, (i + 1) k), so the area average
/// covers the same source region through it; only the split of a box that straddles two output pixels is
/// averaged (at most 1 level off the direct area average on whole factors, tested).
enum BoxReduction {
    /// The largest factor on an axis: a block then sums at most 255 x 256 x 256 per channel, within the UInt32
    /// column sums (the area average takes the rest of a larger reduction: at most 32767 / 256).
    static let maximumFactor = 256

    /// The box factor for a reduction by `scale` on one axis: the largest whole k leaving the area average at least
    /// a factor of 2, at most `maximumFactor`, or 1 (no box) below a factor of 4.
    static func factor(for scale: Double) -> Int { scale >= 4 ? min(maximumFactor, Int(scale / 2)) : 1 }

    /// `buffer` (8-bit RGBA, premultiplied or opaque) averaged over `kx` x `ky` blocks (each at most
    /// `maximumFactor`, else `.invalidArgument`), rounded to nearest:
    /// ceil(width / kx) x ceil(height / ky) pixels, in the buffer's format; a block cut by the right or bottom edge
    /// averages the pixels it has. Throws `.cancelled` when its pool job is cancelled.
    static func reduced(_ buffer: PixelBuffer, kx: Int, ky: Int) throws(ImageError) -> PixelBuffer {
        guard (1...maximumFactor).contains(kx), (1...maximumFactor).contains(ky) else {
            throw ImageError(.invalidArgument, "box factors \(kx)x\(ky) outside 1-\(maximumFactor)")
        }
        let width = (buffer.width + kx - 1) / kx
        let height = (buffer.height + ky - 1) / ky
        var output = try PixelBuffer(width: width, height: height, format: buffer.format, zeroed: false)
        let rowBytes = buffer.width * 4
        // Column sums of a band of ky rows, each at most 255 x 256; a block's sum at most 255 x 256 x 256.
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: rowBytes)
        defer { sums.deallocate() }
        let sourceStride = buffer.bytesPerRow
        let outputStride = output.bytesPerRow
        let sourceHeight = buffer.height
        try buffer.withUnsafeBytes { (source: UnsafeRawBufferPointer) throws(ImageError) in
            let base = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
            try output.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) throws(ImageError) in
                let targetBase = target.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for band in 0..<height {
                    // A cancelled request stops within 16 bands (16 x ky source rows).
                    if band & 15 == 0 { try WorkerPool.checkCancellation() }
                    let top = band * ky
                    let rows = min(ky, sourceHeight - top)
                    sums.update(repeating: 0, count: rowBytes)
                    for row in top..<top + rows {
                        let line = base + row * sourceStride
                        for i in 0..<rowBytes { sums[i] &+= UInt32(line[i]) }
                    }
                    let out = targetBase + band * outputStride
                    for column in 0..<width {
                        let left = column * kx
                        let columns = min(kx, buffer.width - left)
                        let count = UInt32(columns * rows)
                        let half = count / 2
                        for channel in 0..<4 {
                            var sum: UInt32 = 0
                            for x in left..<left + columns { sum &+= sums[x * 4 + channel] }
                            out[column * 4 + channel] = UInt8(truncatingIfNeeded: (sum + half) / count)
                        }
                    }
                }
            }
        }
        return output
    }
}

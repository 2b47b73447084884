import WICore

/// thumbor's `convolution(ITEMS,COLUMNS,NORMALIZE)` and the passes of its `blur()`: a kernel of `columns` x `rows`
/// weights (both odd) centred on each pixel, edges repeated, sums in double precision in row-major order, each
/// channel truncated toward zero and clamped, as thumbor's `_convolution` extension computes it. Alpha is convolved
/// too, unless the image is opaque (thumbor then works on RGB data): opaque stays opaque.
///
/// Thread safety: an immutable value; safe from any thread.
struct ThumborConvolution: Sendable {
    /// Row-major weights, divided by their sum when normalized (and the sum is not 0).
    let kernel: [Double]
    let columns: Int

    /// The most weights a `convolution()` kernel may have (thumbor has no limit; each weight costs a pass).
    static let maximumWeights = 625

    /// A kernel of `weights` in rows of `columns`; nil unless both the column and the row count are odd.
    init?(weights: [Double], columns: Int, normalize: Bool) {
        guard columns > 0, weights.count % columns == 0, columns % 2 == 1, (weights.count / columns) % 2 == 1 else {
            return nil
        }
        var sum = 0.0
        for weight in weights { sum += weight }
        kernel = normalize && sum != 0 ? weights.map { $0 / sum } : weights
        self.columns = columns
    }

    /// Every frame of `image`, convolved.
    func apply(to image: Image) throws(ImageError) -> Image {
        try image.mappingFrames { (pixels) throws(ImageError) in
            let source = try pixels.converted(to: .rgba8).packedBytes()
            var output = try convolve(source, width: pixels.width, height: pixels.height)
            if pixels.isOpaque { Self.makeOpaque(&output) }
            return try PixelBuffer(width: pixels.width, height: pixels.height, format: .rgba8, bytes: output)
        }
    }

    /// `source` (packed RGBA8, `width` x `height`) convolved, all four channels; throws `.cancelled` between rows
    /// once the pool job is cancelled.
    func convolve(_ source: [UInt8], width: Int, height: Int) throws(ImageError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: source.count)
        var cancelled = false
        let rows = kernel.count / columns, middleX = columns / 2, middleY = rows / 2
        source.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { target in
                kernel.withUnsafeBufferPointer { weights in
                    for y in 0..<height {
                        if WorkerPool.isCancelled {
                            cancelled = true
                            break
                        }
                        for x in 0..<width {
                            var sums: (Double, Double, Double, Double) = (0, 0, 0, 0)
                            for row in 0..<rows {
                                let sourceY = min(max(y - middleY + row, 0), height - 1)
                                for column in 0..<columns {
                                    let sourceX = min(max(x - middleX + column, 0), width - 1)
                                    let at = (sourceY * width + sourceX) * 4
                                    let weight = weights[row * columns + column]
                                    sums.0 += Double(input[at]) * weight
                                    sums.1 += Double(input[at + 1]) * weight
                                    sums.2 += Double(input[at + 2]) * weight
                                    sums.3 += Double(input[at + 3]) * weight
                                }
                            }
                            let to = (y * width + x) * 4
                            target[to] = Self.truncated(sums.0)
                            target[to + 1] = Self.truncated(sums.1)
                            target[to + 2] = Self.truncated(sums.2)
                            target[to + 3] = Self.truncated(sums.3)
                        }
                    }
                }
            }
        }
        if cancelled { throw ImageError(.cancelled, "the request was cancelled while its work ran") }
        return output
    }

    /// Alpha back to 255 (thumbor convolves RGB data only when the image has no alpha).
    static func makeOpaque(_ bytes: inout [UInt8]) {
        for index in stride(from: 3, to: bytes.count, by: 4) { bytes[index] = 255 }
    }

    /// thumbor's `ADJUST_COLOR((int)sum)`: toward zero, then clamped to 0...255.
    private static func truncated(_ value: Double) -> UInt8 {
        UInt8(min(max(Int(value.rounded(.towardZero)), 0), 255))
    }
}

import WICore

/// Spreads each colour channel's levels over the whole range by histogram equalization; alpha is left alone.
///
/// thumbor 7.8's arithmetic (`equalize()`): per channel, the cumulative count of every level present, mapped by
/// `(cdf(level) - cdfMin) / (pixels - cdfMin) * 255` in single precision and truncated; `cdfMin` is taken at the
/// lowest level where any channel has a pixel (a channel with none there keeps 0, as in thumbor), and a channel whose
/// lowest level holds every pixel becomes 0 (thumbor's 0 / 0). Every pixel counts, transparent ones too. Byte for byte thumbor's on 8-bit frames;
/// 16-bit frames stay 16-bit (the same formula over their 65536 levels, times 65535). Key: `Equalize()`.
///
/// ```swift
/// let spread = try EqualizeTransformer().transform(image)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct EqualizeTransformer: ImageTransformer, Hashable {
    /// The transformer; it takes no argument.
    public init() {}

    public var key: String { TransformerKey.make("Equalize", []) }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        try image.transformingFrames(outputSize: image.size) { (frame) throws(ImageError) -> PixelBuffer in
            let wide = frame.format == .rgba16 || frame.format == .premultipliedRGBA16
            var output = try frame.converted(to: wide ? .rgba16 : .rgba8)
            try output.makeUnique()
            let (width, height, bytesPerRow) = (output.width, output.height, output.bytesPerRow)
            try output.withUnsafeMutableBytes { (bytes) throws(ImageError) in
                if wide {
                    try Self.equalize(bytes, UInt16.self, width: width, height: height, bytesPerRow: bytesPerRow)
                } else {
                    try Self.equalize(bytes, UInt8.self, width: width, height: height, bytesPerRow: bytesPerRow)
                }
            }
            if frame.format == .premultipliedRGBA8 || frame.format == .premultipliedRGBA16 {
                output = try output.converted(to: frame.format)
            }
            return output
        }
    }

    /// Equalizes the RGBA samples of `Sample` in `bytes` (rows of `bytesPerRow`), red, green and blue each.
    private static func equalize<Sample: FixedWidthInteger & UnsignedInteger>(
        _ bytes: UnsafeMutableRawBufferPointer, _: Sample.Type, width: Int, height: Int, bytesPerRow: Int
    ) throws(ImageError) {
        let levels = Int(Sample.max) + 1
        var histograms = [[Int]](repeating: [Int](repeating: 0, count: levels), count: 3)
        for y in 0..<height {
            if y & 15 == 0 { try WorkerPool.checkCancellation() }
            let row = (bytes.baseAddress! + y * bytesPerRow).assumingMemoryBound(to: Sample.self)
            for x in 0..<width {
                for channel in 0..<3 { histograms[channel][Int(row[x * 4 + channel])] += 1 }
            }
        }
        // thumbor's cumulative counts: kept only for the levels present; the minimum of each channel taken at the
        // first level where any channel has pixels.
        var cumulative = histograms
        var minimum = [0, 0, 0]
        for channel in 0..<3 {
            var total = 0
            for level in 0..<levels {
                total += histograms[channel][level]
                cumulative[channel][level] = histograms[channel][level] > 0 ? total : 0
            }
        }
        var level = 0
        while minimum == [0, 0, 0], level < levels {
            for channel in 0..<3 where minimum[channel] == 0 { minimum[channel] = cumulative[channel][level] }
            level += 1
        }
        let area = width * height
        let scale = Float(Sample.max)
        let tables = (0..<3).map { channel in
            cumulative[channel].map { count -> Sample in
                guard count > 0 else { return 0 }  // a level no pixel has
                let spread = (Float(count) - Float(minimum[channel])) / Float(area - minimum[channel]) * scale
                // C's conversion of NaN or infinity (one level only: 0 / 0) gives 0 on x86-64, as thumbor sees.
                return spread.isFinite ? Sample(min(max(spread, 0), scale).rounded(.towardZero)) : 0
            }
        }
        for y in 0..<height {
            if y & 15 == 0 { try WorkerPool.checkCancellation() }
            let row = (bytes.baseAddress! + y * bytesPerRow).assumingMemoryBound(to: Sample.self)
            for x in 0..<width {
                for channel in 0..<3 { row[x * 4 + channel] = tables[channel][Int(row[x * 4 + channel])] }
            }
        }
    }
}

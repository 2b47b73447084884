#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WICore

/// Convolves every frame with one kernel, or with several in turn (a separable blur is a row kernel, then a
/// column kernel): each output sample the weighted sum of its neighbours (edges repeated) in double precision,
/// row-major, truncated toward zero and clamped, between passes too. Alpha is convolved as well, unless the frame
/// is opaque (it then stays opaque).
///
/// This is thumbor 7.8's `_convolution` arithmetic (its `convolution()` filter) and, with `gaussianBlur`, its
/// `blur(R,S)`; byte for byte thumbor's on 8-bit frames (Tests/Fixtures/serve-color, serve-blur). 16-bit frames
/// stay 16-bit. Key: `Convolution(3x3,<digest>)`, `Convolution(gaussian,4,2)`.
///
/// ```swift
/// let edges = try ConvolutionTransformer(weights: [-1, -1, -1, -1, 8, -1, -1, -1, -1], columns: 3, normalize: false)
/// let soft = try ConvolutionTransformer.gaussianBlur(radius: 4)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct ConvolutionTransformer: ImageTransformer, Hashable {
    /// One pass: row-major weights in rows of `columns` (both counts odd).
    public struct Kernel: Hashable, Sendable {
        public let weights: [Double]
        public let columns: Int
        public var rows: Int { weights.count / columns }
    }

    /// The passes, applied in order.
    public let passes: [Kernel]
    private let name: String

    /// The most weights a kernel may have.
    public static let maximumWeights = 10_000

    /// One kernel of `weights` in rows of `columns`, divided by their sum when `normalize` (and the sum is not
    /// 0). Throws `.invalidArgument` unless both the column and the row count are odd, every weight is finite,
    /// and there are at most `maximumWeights`.
    public init(weights: [Double], columns: Int, normalize: Bool = true) throws(ImageError) {
        try ArgumentCheck.within(weights.count, 1...Self.maximumWeights, "kernel weight count")
        guard columns > 0, weights.count % columns == 0, columns % 2 == 1, (weights.count / columns) % 2 == 1 else {
            throw ArgumentCheck.invalid(
                "kernel", "have an odd number of columns and of rows",
                "\(weights.count) weights in rows of \(columns)")
        }
        guard weights.allSatisfy(\.isFinite) else {
            throw ArgumentCheck.invalid("kernel weights", "be finite", "\(weights)")
        }
        var sum = 0.0
        for weight in weights { sum += weight }
        let kernel = Kernel(weights: normalize && sum != 0 ? weights.map { $0 / sum } : weights, columns: columns)
        self.init(passes: [kernel], name: "\(columns)x\(weights.count / columns)," + Self.digest(kernel.weights))
    }

    private init(passes: [Kernel], name: String) {
        self.passes = passes
        self.name = name
    }

    /// thumbor's `blur(radius, sigma)`: a Gaussian of `2 x radius + 1` taps with standard deviation `sigma`
    /// (`radius` when 0), normalized, across the rows, then down the columns (computed as thumbor computes it: the
    /// same powers of e, divisions and order). Unlike `BlurTransformer`, the window ends at `radius` and each pass
    /// is truncated to whole levels. `radius` 1...1000, `sigma` 0...1e150 (its square stays finite).
    public static func gaussianBlur(radius: Int, sigma: Double = 0) throws(ImageError) -> ConvolutionTransformer {
        try ArgumentCheck.within(radius, 1...1000, "blur radius")
        try ArgumentCheck.within(sigma, 0...1e150, "blur sigma")
        let kernel = gaussianKernel(radius: radius, sigma: sigma)
        return ConvolutionTransformer(
            passes: [Kernel(weights: kernel, columns: kernel.count), Kernel(weights: kernel, columns: 1)],
            name: "gaussian,\(radius),\(TransformerKey.number(sigma))")
    }

    /// The normalized Gaussian weights of `gaussianBlur`.
    static func gaussianKernel(radius: Int, sigma: Double) -> [Double] {
        let sigma = sigma == 0 ? Double(radius) : sigma
        let twoSigmaSquared = 2 * sigma * sigma
        var weights: [Double] = []
        weights.reserveCapacity(2 * radius + 1)
        for column in 0...(2 * radius) {
            let offset = column - radius
            weights.append(
                pow(M_E, -(Double(offset * offset) / twoSigmaSquared)) / (twoSigmaSquared * Double.pi).squareRoot())
        }
        var sum = 0.0
        for weight in weights { sum += weight }
        return sum == 0 ? weights : weights.map { $0 / sum }
    }

    public var key: String { "Convolution(\(name))" }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        try FrameSamples.map(
            image,
            eight: { (samples, width, height, opaque) throws(ImageError) in
                try run(samples, width: width, height: height, opaque: opaque)
            },
            sixteen: { (samples, width, height, opaque) throws(ImageError) in
                try run(samples, width: width, height: height, opaque: opaque)
            })
    }

    private func run<Sample: FixedWidthInteger & UnsignedInteger>(
        _ samples: [Sample], width: Int, height: Int,
        opaque: Bool
    ) throws(ImageError) -> [Sample] {
        var current = samples
        for pass in passes { current = try Self.convolve(current, width: width, height: height, with: pass) }
        // thumbor convolves RGB data when the image has no alpha: opaque stays opaque.
        if opaque { FrameSamples.makeOpaque(&current) }
        return current
    }

    /// `source` (packed RGBA, `width` x `height`) convolved with `kernel`, all four channels; throws `.cancelled`
    /// between rows once the pool job is cancelled.
    static func convolve<Sample: FixedWidthInteger & UnsignedInteger>(
        _ source: [Sample], width: Int, height: Int,
        with kernel: Kernel
    ) throws(ImageError) -> [Sample] {
        var output = [Sample](repeating: 0, count: source.count)
        let rows = kernel.rows
        let columns = kernel.columns
        let middleX = columns / 2
        let middleY = rows / 2
        let maximum = Int(Sample.max)
        var cancelled = false
        source.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { target in
                kernel.weights.withUnsafeBufferPointer { weights in
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
                            target[to] = Sample(truncated(sums.0, maximum))
                            target[to + 1] = Sample(truncated(sums.1, maximum))
                            target[to + 2] = Sample(truncated(sums.2, maximum))
                            target[to + 3] = Sample(truncated(sums.3, maximum))
                        }
                    }
                }
            }
        }
        if cancelled { throw ImageError(.cancelled, "the request was cancelled while its work ran") }
        return output
    }

    /// thumbor's `ADJUST_COLOR((int)sum)`: toward zero, then clamped to 0...`maximum`.
    @inline(__always)
    private static func truncated(_ value: Double, _ maximum: Int) -> Int {
        min(max(Int(value.rounded(.towardZero)), 0), maximum)
    }

    /// A short, stable digest of the weights (FNV-1a over their bit patterns) for keys.
    private static func digest(_ weights: [Double]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for weight in weights { hash = (hash ^ weight.bitPattern) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import WICore

/// Sharpens with an à-trous wavelet: thumbor 7.8's `sharpen(amount, radius, luminance_only)`. Each colour channel (or, with
/// `luminanceOnly`, the Y of its YCbCr form) is split into five detail layers by the [1 2 1] / 4 hat filter at
/// spacings 1, 2, 4, 8 and 16 (mirrored at the edges), layer `k` is amplified by `amount x e^(-(k - radius)^2 / 1.5)
/// + 1`, and the layers are added back onto the coarsest residue. Single precision throughout, in thumbor's order of
/// operations, so the result equals its `_sharpen` extension's byte for byte (Tests/Fixtures/serve-sharpen) on
/// images of at least 32 pixels a side; on smaller ones thumbor reads outside its buffers, where this mirrors again.
/// Alpha is left alone. 16-bit frames stay 16-bit (the same arithmetic on their levels scaled to 0...255).
/// Key: `WaveletSharpen(2,1,false)`.
///
/// ```swift
/// let crisp = try WaveletSharpenTransformer(amount: 2, radius: 1, luminanceOnly: true).transform(image)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct WaveletSharpenTransformer: ImageTransformer, Hashable {
    /// How much each detail layer is amplified at its peak (-100...100).
    public let amount: Double
    /// The detail layer (0...100, between the five spacings) amplified most.
    public let radius: Double
    /// Sharpen only the luma (Y of YCbCr), leaving the colour alone.
    public let luminanceOnly: Bool

    /// Throws `.invalidArgument` unless `amount` is in -100...100 and `radius` in 0...100, both finite.
    public init(amount: Double, radius: Double, luminanceOnly: Bool) throws(ImageError) {
        try ArgumentCheck.within(amount, -100...100, "sharpen amount")
        try ArgumentCheck.within(radius, 0...100, "sharpen radius")
        (self.amount, self.radius, self.luminanceOnly) = (amount, radius, luminanceOnly)
    }

    public var key: String {
        TransformerKey.make(
            "WaveletSharpen", [TransformerKey.number(amount), TransformerKey.number(radius), "\(luminanceOnly)"])
    }

    /// The hat filter's spacings: 2^0 ... 2^4.
    private static let levels = 5

    public func transform(_ image: Image) throws(ImageError) -> Image {
        try FrameSamples.map(
            image,
            eight: { (samples, width, height, _) throws(ImageError) in
                try sharpened(samples, width: width, height: height)
            },
            sixteen: { (samples, width, height, _) throws(ImageError) in
                try sharpened(samples, width: width, height: height)
            })
    }

    /// Packed RGBA samples sharpened (levels scaled to 0...255 first: exactly so for 8-bit samples).
    private func sharpened<Sample: FixedWidthInteger & UnsignedInteger>(_ input: [Sample], width: Int, height: Int)
        throws(ImageError) -> [Sample]
    {
        var samples = input
        let area = width * height
        let toLevels = Sample.max == 255 ? Float(1) : Float(255) / Float(Sample.max)
        var planes = [[Float]](repeating: [Float](repeating: 0, count: area), count: 3)
        for index in 0..<area {
            if index & 0xFFFF == 0 { try WorkerPool.checkCancellation() }
            var red = Float(samples[index * 4]) * toLevels
            var green = Float(samples[index * 4 + 1]) * toLevels
            var blue = Float(samples[index * 4 + 2]) * toLevels
            if luminanceOnly { (red, green, blue) = Self.ycbcr(red, green, blue) }
            planes[0][index] = red / 255
            planes[1][index] = green / 255
            planes[2][index] = blue / 255
        }
        for channel in 0..<(luminanceOnly ? 1 : 3) { try sharpen(&planes[channel], width: width, height: height) }
        for index in 0..<area {
            if index & 0xFFFF == 0 { try WorkerPool.checkCancellation() }
            var red = planes[0][index] * 255
            var green = planes[1][index] * 255
            var blue = planes[2][index] * 255
            if luminanceOnly { (red, green, blue) = Self.rgb(red, green, blue) }
            samples[index * 4] = Self.sample(red, toLevels)
            samples[index * 4 + 1] = Self.sample(green, toLevels)
            samples[index * 4 + 2] = Self.sample(blue, toLevels)
        }
        return samples
    }

    /// One plane, in place: detail layers amplified and summed back onto the coarsest residue; throws `.cancelled`
    /// between rows and columns once the pool job is cancelled.
    private func sharpen(_ plane: inout [Float], width: Int, height: Int) throws(ImageError) {
        let area = width * height
        // `plane` ends up holding the sum; `smooth` holds each level's low-pass, `detail` the previous one (whose
        // difference to the new low-pass is that level's detail).
        var previous = plane
        var smooth = [Float](repeating: 0, count: area)
        var line = [Float](repeating: 0, count: max(width, height))
        for level in 0..<Self.levels {
            let spacing = 1 << level
            for row in 0..<height {
                if row % 16 == 0 { try WorkerPool.checkCancellation() }
                Self.hat(previous, start: row * width, stride: 1, count: width, spacing: spacing, into: &line)
                for column in 0..<width { smooth[row * width + column] = line[column] * 0.25 }
            }
            for column in 0..<width {
                if column % 16 == 0 { try WorkerPool.checkCancellation() }
                Self.hat(smooth, start: column, stride: width, count: height, spacing: spacing, into: &line)
                for row in 0..<height { smooth[row * width + column] = line[row] * 0.25 }
            }
            let distance = Double(level) - radius
            let gain = Float(amount * exp(-distance * distance / 1.5) + 1)
            for index in 0..<area {
                if index & 0xFFFF == 0 { try WorkerPool.checkCancellation() }
                let detail = (previous[index] - smooth[index]) * gain
                if level == 0 { plane[index] = detail } else { plane[index] += detail }
            }
            swap(&previous, &smooth)
        }
        for index in 0..<area {
            if index & 0xFFFF == 0 { try WorkerPool.checkCancellation() }
            plane[index] = plane[index] + previous[index]
        }
    }

    /// The [1 2 1] hat at `spacing` along one line of `count` samples `stride` apart from `start`: `2 x centre +
    /// left + right`, the neighbours mirrored about the line's ends.
    private static func hat(
        _ source: [Float], start: Int, stride: Int, count: Int, spacing: Int, into line: inout [Float]
    ) {
        func mirrored(_ position: Int) -> Int {
            guard count > 1 else { return 0 }
            let period = 2 * (count - 1)
            var folded = position % period
            if folded < 0 { folded += period }
            return folded < count ? folded : period - folded
        }
        for index in 0..<count {
            let before = index - spacing
            let after = index + spacing
            let centre = source[start + stride * index]
            let left = source[start + stride * (before >= 0 ? before : mirrored(before))]
            let right = source[start + stride * (after < count ? after : mirrored(after))]
            line[index] = 2 * centre + left + right
        }
    }

    /// RGB to YCbCr (JPEG's), in double precision and kept as floats, as thumbor converts.
    private static func ycbcr(_ red: Float, _ green: Float, _ blue: Float) -> (Float, Float, Float) {
        let r = Double(red)
        let g = Double(green)
        let b = Double(blue)
        return (
            Float(0.2990 * r + 0.5870 * g + 0.1140 * b), Float(-0.1687 * r - 0.3313 * g + 0.5000 * b + 128.0),
            Float(0.5000 * r - 0.4187 * g - 0.0813 * b + 128.0)
        )
    }

    private static func rgb(_ y: Float, _ cb: Float, _ cr: Float) -> (Float, Float, Float) {
        let luma = Double(y)
        let blueDifference = Double(cb) - 128.0
        let redDifference = Double(cr) - 128.0
        return (
            Float(luma + 1.40200 * redDifference),
            Float(luma - 0.34414 * blueDifference - 0.71414 * redDifference),
            Float(luma + 1.77200 * blueDifference)
        )
    }

    /// A level of 0...255 as a sample: clamped, then truncated (8-bit); scaled back first for wider samples.
    private static func sample<Sample: FixedWidthInteger & UnsignedInteger>(_ value: Float, _ toLevels: Float) -> Sample
    {
        let level = value > 255 ? 255 : value < 0 ? 0 : value
        return toLevels == 1 ? Sample(level) : Sample(min(Float(Sample.max), level / toLevels))
    }
}

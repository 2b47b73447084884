import WICore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A Gaussian blur whose radius is the standard deviation in pixels (as CSS `blur()` and Pillow's
/// `GaussianBlur` take it); the kernel reaches 3 radii each way and edges repeat outwards.
///
/// Two one-dimensional pixman convolutions (rows, then columns) on premultiplied pixels, so transparent areas do
/// not darken their neighbours. Key: `Blur(10)`. A radius of 0 returns the image unchanged.
///
/// ```swift
/// let frosted = try BlurTransformer(radius: 8).transform(image)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct BlurTransformer: ImageTransformer, Hashable {
    /// The standard deviation in pixels.
    public let radius: Double

    public init(radius: Double) {
        precondition(radius >= 0 && radius.isFinite, "a blur radius must be finite and not negative")
        self.radius = radius
    }

    public var key: String { TransformerKey.make("Blur", [TransformerKey.number(radius)]) }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        guard radius > 0 else { return image }
        let weights = Self.kernel(sigma: radius)
        let taps = Int32(weights.count) << 16, one: Int32 = 1 << 16
        let rows: [Int32] = [taps, one, 0, 0] + weights + [one]
        let columns: [Int32] = [one, taps, 0, 0, one] + weights
        return try image.transformingFrames(outputSize: image.size) { buffer throws(ImageError) in
            let source = try WorkingPixels.premultiplied(buffer)
            let across = try WorkingPixels.blank(width: buffer.width, height: buffer.height, zeroed: false)
            let output = try WorkingPixels.blank(width: buffer.width, height: buffer.height, zeroed: false)
            let first = try PixmanImage(source)
            try first.setSampling(.identity, filter: .convolution(rows), padEdges: true)
            let middle = try PixmanImage(across)
            middle.composite(.source, source: first)
            try middle.setSampling(.identity, filter: .convolution(columns), padEdges: true)
            try PixmanImage(output).composite(.source, source: middle)
            return try WorkingPixels.restored(output, to: buffer.format)
        }
    }

    /// The sampled Gaussian over -ceil(3 sigma)...ceil(3 sigma) in 16.16 fixed point, symmetric, summing to exactly
    /// 1.0 (the centre takes the rounding remainder).
    static func kernel(sigma: Double) -> [Int32] {
        let reach = max(1, Int((3 * sigma).rounded(.up)))
        let raw = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = raw.reduce(0, +)
        var fixed = raw.map { Int32(($0 / total * 65536).rounded()) }
        fixed[reach] += 65536 - fixed.reduce(0, +)
        return fixed
    }
}

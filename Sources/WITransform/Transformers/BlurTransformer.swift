import WICore

/// A Gaussian blur whose radius is the standard deviation in pixels (as CSS `blur()` and Pillow's
/// `GaussianBlur` take it). Edges repeat outwards.
///
/// Three box blurs per direction on premultiplied pixels (so transparent areas do not darken their neighbours),
/// the extended-box approximation Pillow also uses; see `BoxBlur` for why this one job is not done by pixman.
/// Key: `Blur(10)`. A radius of 0 returns the image unchanged.
///
/// ```swift
/// let frosted = try BlurTransformer(radius: 8).transform(image)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct BlurTransformer: ImageTransformer, Hashable {
    /// The standard deviation in pixels.
    public let radius: Double

    /// The largest radius accepted: 1048576 (1 << 20) pixels, far past the point where every pixel becomes the
    /// image's mean (the blur's cost does not grow with the radius).
    public static let maximumRadius = Double(1 << 20)

    /// A blur of standard deviation `radius` pixels.
    ///
    /// Throws `.invalidArgument` unless `radius` is finite and in 0...`maximumRadius`.
    public init(radius: Double) throws(ImageError) {
        try ArgumentCheck.within(radius, 0...Self.maximumRadius, "blur radius")
        self.radius = radius
    }

    public var key: String { TransformerKey.make("Blur", [TransformerKey.number(radius)]) }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        guard radius > 0 else { return image }
        return try image.transformingFrames(outputSize: image.size) { buffer throws(ImageError) in
            let source = try WorkingPixels.premultiplied(buffer)
            let output = try WorkingPixels.output(
                width: buffer.width, height: buffer.height, for: buffer.format,
                zeroed: false)
            try BoxBlur.blur(source, into: output, sigma: radius)
            return try WorkingPixels.finished(output, as: buffer.format)
        }
    }
}

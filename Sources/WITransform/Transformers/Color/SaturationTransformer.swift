import WICore

/// Moves each pixel's colour toward or away from its perceived brightness: `change` 0 is grey, 1 unchanged, above
/// 1 more saturated; -100...100. Alpha is left alone.
///
/// thumbor 7.8's arithmetic (`saturation(X)`): the brightness is the square root of the channels' squares
/// weighted 0.299, 0.587, 0.114 (double precision, kept as a float), each channel `p + (value - p) * change` in
/// single precision, truncated toward zero, clamped; byte for byte thumbor's on 8-bit frames. 16-bit frames stay
/// 16-bit (the same formula on their levels). Key: `Saturation(0.5)`.
///
/// ```swift
/// let muted = try SaturationTransformer(change: 0.5).transform(image)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct SaturationTransformer: ImageTransformer, Hashable {
    public let change: Double

    /// Throws `.invalidArgument` unless `change` is a finite number in -1000000...1000000 (thumbor's single-precision
    /// arithmetic stays within an integer's range there).
    public init(change: Double) throws(ImageError) {
        try ArgumentCheck.within(change, -1_000_000...1_000_000, "saturation")
        self.change = change
    }

    public var key: String { TransformerKey.make("Saturation", [TransformerKey.number(change)]) }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        let change = Float(change)
        return try ChannelMapping.map(
            image, eight: { Self.saturate($0, change) }, sixteen: { Self.saturate($0, change) })
    }

    /// Each pixel of `pixels` (RGBA samples) moved by `change` from its brightness.
    private static func saturate<Sample: FixedWidthInteger & UnsignedInteger>(
        _ pixels: UnsafeMutableBufferPointer<Sample>,
        _ change: Float
    ) {
        let maximum = Int(Sample.max)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            let (red, green, blue) = (Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]))
            // As thumbor: the squares weighted in double precision, the root kept as a float.
            let weighted = Double(red * red) * 0.299 + Double(green * green) * 0.587 + Double(blue * blue) * 0.114
            let brightness = Float(weighted.squareRoot())
            pixels[index] = Sample(saturated(red, brightness, change, maximum: maximum))
            pixels[index + 1] = Sample(saturated(green, brightness, change, maximum: maximum))
            pixels[index + 2] = Sample(saturated(blue, brightness, change, maximum: maximum))
        }
    }

    /// `p + (value - p) * change` in single precision, truncated toward zero, clamped to 0...`maximum`.
    @inline(__always)
    private static func saturated(_ value: Int, _ brightness: Float, _ change: Float, maximum: Int) -> Int {
        let result = brightness + (Float(value) - brightness) * change
        return min(max(Int(result.rounded(.towardZero)), 0), maximum)
    }
}

import WICore

/// Grey levels: each pixel's ITU-R 601 luma (0.299 R + 0.587 G + 0.114 B) in every colour channel; alpha left
/// alone.
///
/// As thumbor 7.8's Pillow engine computes it (`convert("L")`: 16-bit fixed point, rounded), byte for byte on
/// 8-bit frames; 16-bit frames stay 16-bit with the same weights. Key: `Grayscale()`.
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct GrayscaleTransformer: ImageTransformer, Hashable {
    public init() {}

    public var key: String { "Grayscale()" }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        try ChannelMapping.map(image, eight: { Self.gray($0) }, sixteen: { Self.gray($0) })
    }

    /// Each pixel of `pixels` (RGBA samples) to its luma: weights in 16-bit fixed point, rounded.
    private static func gray<Sample: FixedWidthInteger & UnsignedInteger>(_ pixels: UnsafeMutableBufferPointer<Sample>)
    {
        for index in stride(from: 0, to: pixels.count, by: 4) {
            let red: Int = Int(pixels[index]) * 19_595
            let green: Int = Int(pixels[index + 1]) * 38_470
            let blue: Int = Int(pixels[index + 2]) * 7_471
            let luma = Sample((red + green + blue + 0x8000) >> 16)
            (pixels[index], pixels[index + 1], pixels[index + 2]) = (luma, luma, luma)
        }
    }
}

import Foundation
import WebImage

/// The operations every benchmark measures, done the way an app would do them through the public API.
public enum Workloads {
    /// Every coder the project ships, as `WebImage.makeCoders()` registers them.
    public static let coders = WebImage.makeCoders()

    /// A full decode to 8-bit RGBA.
    public static func decode(_ data: Data) throws(ImageError) -> Image {
        try coders.decode(data, options: DecodeOptions(preloadAllFrames: true))
    }

    /// A thumbnail that fits in `size` x `size` (DCT-scaled decode, then the remaining resample), in `colorSpace`.
    public static func thumbnail(
        _ data: Data, size: Int, colorSpace: DecodeOptions.TargetColorSpace = .preserve
    ) throws(ImageError) -> Image {
        var options = DecodeOptions(thumbnailPixelSize: PixelSize(width: size, height: size))
        options.targetColorSpace = colorSpace
        return try coders.decode(data, options: options)
    }

    /// A thumbnail encoded as JPEG at `quality` (0.75 by default, vipsthumbnail's default output).
    public static func thumbnailJPEG(_ data: Data, size: Int, quality: Double = 0.75) throws(ImageError) -> Data {
        let image = try thumbnail(data, size: size)
        return try coders.encode(image, as: .jpeg, options: EncodeOptions(quality: quality))
    }
}

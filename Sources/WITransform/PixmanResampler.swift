import WICore

/// The `ImageResampler` on pixman that coders use to finish thumbnails once WITransform is installed.
///
/// 8-bit buffers are resized by pixman: exact area averaging when shrinking, bilinear when enlarging, in
/// premultiplied alpha. 16-bit buffers go to WICore's `AreaAverageResampler`, which keeps all 16 bits (pixman 0.42
/// has no 16-bit-per-channel RGBA format), and so do sides over 32767 pixels, which pixman cannot address.
///
/// Swift has no module initializers, so an app (or the `WebImage` umbrella) installs it once at start-up:
///
/// ```swift
/// import WITransform
/// PixmanResampler.install()      // coders' thumbnails now resize with pixman
/// ```
///
/// Thread safety: stateless; safe from any thread at once.
public struct PixmanResampler: ImageResampler {
    public init() {}

    /// Makes this resampler the process-wide one (`ImageResampling.register`). Idempotent.
    public static func install() {
        ImageResampling.register(PixmanResampler())
    }

    public func resample(_ buffer: PixelBuffer, to size: PixelSize) throws(ImageError) -> PixelBuffer {
        let longest = max(buffer.width, buffer.height, size.width, size.height)
        if buffer.format.bitsPerComponent == 16 || longest > PixmanImage.maximumSide {
            return try AreaAverageResampler().resample(buffer, to: size)
        }
        return try Resampling.resized(buffer, to: size)
    }
}

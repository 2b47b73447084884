import WICore

/// The `ImageResampler` on pixman, for coders to finish thumbnails and scale down before encoding.
///
/// 8-bit buffers are resized in premultiplied alpha: area averaging when shrinking, bilinear (pixman) when an axis
/// grows. A reduction by 4 or more on an axis is first box-averaged by a whole factor (Pillow's `reducing_gap`
/// idea); the rest of a reduction is an exact area average in two separable passes (`AreaReduction`): the same
/// region of the source for each output pixel, within 1 level of the direct area average, and far less work than
/// pixman's separable-convolution filter, which evaluates the whole 2-D footprint for every output pixel.
/// 16-bit buffers go to WICore's `ImageCoding.AreaAverageResampler`, which keeps all 16 bits (pixman 0.42 has no
/// 16-bit-per-channel RGBA format), and so do sides over 32767 pixels, which pixman cannot address.
///
/// Give it to the coders manager (which fills it into options that name no resampler), or to one decode's options;
/// `WebImage.makeCoders()` does the former:
///
/// ```swift
/// let coders = ImageCodersManager(coders: [JPEGCoder()], resampler: PixmanResampler())
/// var options = DecodeOptions(thumbnailPixelSize: PixelSize(width: 256, height: 256))
/// options.resampler = PixmanResampler()      // this decode only, whatever the manager
/// ```
///
/// Thread safety: stateless; safe from any thread at once.
public struct PixmanResampler: ImageResampler {
    /// A pixman resampler; it holds no state, so every instance behaves the same.
    public init() {}

    public func resample(_ buffer: PixelBuffer, to size: PixelSize) throws(ImageError) -> PixelBuffer {
        let longest = max(buffer.width, buffer.height, size.width, size.height)
        if buffer.format.bitsPerComponent == 16 || longest > PixmanImage.maximumSide {
            return try ImageCoding.AreaAverageResampler().resample(buffer, to: size)
        }
        return try Resampling.resized(buffer, to: size, boxFirst: true)
    }
}

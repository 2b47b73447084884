extension DecodeOptions {
    /// The pixels a coder's raw decode produced, turned into what these options ask for.
    public struct FinishedPixels: Sendable {
        /// The final pixels.
        public var pixels: PixelBuffer
        /// The orientation still to apply (`.up` unless `applyOrientation` is false).
        public var orientation: ImageOrientation
        /// Whether the pixels are smaller than the file's (a thumbnail or byte-limited decode).
        public var isThumbnail: Bool
    }

    /// Applies, in order: the remaining resize to the thumbnail size or byte limit (with `effectiveResampler`,
    /// computed on the displayed, upright size), the orientation, the depth (16 to 8 bits unless `keep16Bit`) and
    /// the alpha form.
    ///
    /// Coders call this after their own decode, passing `reduced: true` when the codec already decoded smaller than
    /// the file (JPEG DCT scaling), so that the result is flagged a thumbnail even if no resampling is left.
    /// `fullSize` is the stored size in the file (before orientation).
    public func finish(_ decoded: PixelBuffer, orientation: ImageOrientation, fullSize: PixelSize? = nil)
        throws(ImageError) -> FinishedPixels
    {
        var pixels = decoded
        let stored = fullSize ?? decoded.size
        let displayed = orientation.swapsDimensions ? PixelSize(width: stored.height, height: stored.width) : stored
        let bytesPerPixel = keep16Bit ? pixels.format.bytesPerPixel : 4
        var isThumbnail = stored != decoded.size
        if let target = targetSize(for: displayed, bytesPerPixel: bytesPerPixel) {
            // Resize before turning: fewer pixels to move. The target is in displayed orientation.
            let storedTarget =
                orientation.swapsDimensions ? PixelSize(width: target.height, height: target.width) : target
            if storedTarget != pixels.size {
                pixels = try effectiveResampler.resample(pixels, to: storedTarget)
            }
            isThumbnail = true
        }
        var remaining = orientation
        if applyOrientation && orientation != .up {
            pixels = try pixels.applying(orientation)
            remaining = .up
        }
        let wide = keep16Bit && pixels.format.bitsPerComponent == 16
        pixels = try pixels.converted(to: .rgba(wide: wide, premultiplied: premultipliedAlpha))
        return FinishedPixels(pixels: pixels, orientation: remaining, isThumbnail: isThumbnail)
    }
}

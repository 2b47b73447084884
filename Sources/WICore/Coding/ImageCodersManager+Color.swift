extension ImageCodersManager {
    /// `image` (decoded with `filling(options)`: straight alpha, the source's depth) in `options.targetColorSpace`,
    /// in the pixel format `options` ask for, its colour description dropped once converted.
    ///
    /// A description the converter cannot use (an unreadable or hostile profile) leaves the pixels as they are: they
    /// are then taken as sRGB, as browsers show such files, and the description is dropped too.
    func converting(_ image: Image, to options: DecodeOptions) throws(ImageError) -> Image {
        guard options.targetColorSpace == .sRGB, image.frameBuffer == nil else { return image }
        let wide = options.keep16Bit && image.pixels.format.bitsPerComponent == 16
        let format = PixelFormat.rgba(wide: wide, premultiplied: options.premultipliedAlpha)
        let describes = image.metadata.describesNonSRGBColor
        if describes && colorConverter == nil {
            throw ImageError(
                .unsupportedFormat,
                "sRGB output was asked for, but this ImageCodersManager has no colour converter for the file's profile")
        }
        let frames = try image.frames
        guard describes || frames.contains(where: { $0.pixels.format != format }) else { return image }
        var converted: [ImageFrame] = []
        converted.reserveCapacity(frames.count)
        for frame in frames {
            var pixels = frame.pixels
            if describes, let colorConverter,
                let result = try colorConverter.convertToSRGB(pixels, describedBy: image.metadata, keep16Bit: wide)
            {
                pixels = result
            }
            converted.append(ImageFrame(pixels: try pixels.converted(to: format), duration: frame.duration))
        }
        var metadata = image.metadata
        metadata.iccProfile = nil
        metadata.colorDescription = nil
        return image.with(frames: converted, metadata: metadata)
    }

    /// The options to decode again with when `image`, decoded with `filled` for a conversion, holds frames decoded
    /// on demand, which would escape the conversion: an animation that describes its colours is decoded whole; one
    /// that does not, on demand in the form the caller asked for (nil when it already is).
    func redecoding(_ image: Image, options: DecodeOptions, filled: DecodeOptions) -> DecodeOptions? {
        guard options.targetColorSpace != .preserve, image.frameBuffer != nil else { return nil }
        if image.metadata.describesNonSRGBColor {
            var preloading = filled
            preloading.preloadAllFrames = true
            return preloading
        }
        let wide = options.keep16Bit && image.pixels.format.bitsPerComponent == 16
        guard image.pixels.format != PixelFormat.rgba(wide: wide, premultiplied: options.premultipliedAlpha) else {
            return nil
        }
        var asked = options
        if asked.resampler == nil { asked.resampler = resampler }
        return asked
    }
}

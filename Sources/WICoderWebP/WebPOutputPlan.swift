import WICore
internal import CWebP

/// What a still decode writes: the size libwebp's own scaler produces (the thumbnail or byte-limited size
/// computed by `DecodeOptions.targetSize` on the upright size, turned back to stored orientation) and the alpha form.
struct WebPOutputPlan {
    /// The image's size in the file.
    let stored: PixelSize
    /// The size libwebp writes (equal to `stored` unless scaling down).
    let output: PixelSize
    /// The pixel format libwebp writes: straight or premultiplied RGBA8.
    let format: PixelFormat

    init(stored: PixelSize, orientation: ImageOrientation, options: DecodeOptions) {
        self.stored = stored
        let displayed = orientation.swapsDimensions ? PixelSize(width: stored.height, height: stored.width) : stored
        if let target = options.targetSize(for: displayed) {
            output = orientation.swapsDimensions ? PixelSize(width: target.height, height: target.width) : target
        } else {
            output = stored
        }
        format = options.premultipliedAlpha ? .premultipliedRGBA8 : .rgba8
    }

    /// Whether libwebp scales (use_scaling) rather than decoding at full size.
    var isScaled: Bool { output != stored }

    /// A buffer to decode into.
    func makeBuffer(zeroed: Bool) throws(ImageError) -> PixelBuffer {
        try PixelBuffer(width: output.width, height: output.height, format: format, zeroed: zeroed)
    }

    /// Points `config`'s output at `memory` (external memory: libwebp writes straight into our buffer) and sets
    /// the colour mode and scaling.
    func configure(_ config: inout WebPDecoderConfig, memory: UnsafeMutableRawBufferPointer, bytesPerRow: Int) {
        config.output.colorspace = format.isPremultiplied ? MODE_rgbA : MODE_RGBA
        config.output.is_external_memory = 1
        config.output.width = Int32(output.width)
        config.output.height = Int32(output.height)
        config.output.u.RGBA.rgba = memory.baseAddress?.assumingMemoryBound(to: UInt8.self)
        config.output.u.RGBA.stride = Int32(bytesPerRow)
        config.output.u.RGBA.size = memory.count
        if isScaled {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(output.width)
            config.options.scaled_height = Int32(output.height)
        }
    }
}

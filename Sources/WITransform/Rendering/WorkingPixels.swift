import WICore

/// The one pixel form every pixman job works in: premultiplied 8-bit RGBA with rows a multiple of 4 bytes.
///
/// Transformers take any frame format in and give the frame's own format back; 16-bit frames are worked on in 8
/// bits (pixman 0.42 has no 16-bit-per-channel RGBA format) and widened again on the way out.
enum WorkingPixels {
    /// `buffer` premultiplied; straight 8-bit pixels are premultiplied by pixman (colour IN alpha).
    static func premultiplied(_ buffer: PixelBuffer) throws(ImageError) -> PixelBuffer {
        switch buffer.format {
        case .premultipliedRGBA8 where buffer.bytesPerRow % 4 == 0:
            return buffer
        case .rgba8 where buffer.bytesPerRow % 4 == 0:
            let output = try blank(width: buffer.width, height: buffer.height, zeroed: false)
            let colour = try PixmanImage(buffer, opaque: true)
            let alpha = try PixmanImage(buffer)
            try PixmanImage(output).composite(.source, source: colour, mask: alpha)
            return output
        default:
            // 16-bit, or rows padded to an odd length: WICore's conversion gives packed premultiplied RGBA8.
            return try buffer.converted(to: .premultipliedRGBA8)
        }
    }

    /// A premultiplied result back in `format` (straight alpha is recovered by WICore's conversion).
    static func restored(_ buffer: PixelBuffer, to format: PixelFormat) throws(ImageError) -> PixelBuffer {
        try buffer.converted(to: format)
    }

    /// A new premultiplied buffer, transparent unless `zeroed` is false.
    static func blank(width: Int, height: Int, zeroed: Bool = true) throws(ImageError) -> PixelBuffer {
        try PixelBuffer(width: width, height: height, format: .premultipliedRGBA8, zeroed: zeroed)
    }
}

extension Image {
    /// Applies `body` to every frame, after checking the output size against the image's pixel limit.
    ///
    /// Frame durations, loop count, format, metadata and flags are kept (the image manager adds `.transformed`).
    func transformingFrames(outputSize: PixelSize, _ body: (PixelBuffer) throws(ImageError) -> PixelBuffer)
        throws(ImageError) -> Image
    {
        try (decodeOptions ?? DecodeOptions()).checkPixelLimit(outputSize, frames: frames.count)
        var output: [ImageFrame] = []
        output.reserveCapacity(frames.count)
        for frame in frames {
            output.append(ImageFrame(pixels: try body(frame.pixels), duration: frame.duration))
        }
        return with(frames: output)
    }
}

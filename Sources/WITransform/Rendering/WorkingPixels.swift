import WICore

/// The one pixel form every pixman job works in: premultiplied 8-bit RGBA with rows a multiple of 4 bytes.
///
/// Transformers take any frame format in and give the frame's own format back. 16-bit frames are worked on in 8
/// bits (pixman 0.42 has no 16-bit-per-channel RGBA format) and widened again on the way out.
enum WorkingPixels {
    /// The premultiplied bytes of `buffer` for pixman to read: the buffer itself when it is premultiplied already,
    /// or straight but fully opaque (the same bytes); otherwise a premultiplied copy.
    static func premultiplied(_ buffer: PixelBuffer) throws(ImageError) -> PixelBuffer {
        switch buffer.format {
        case .premultipliedRGBA8 where buffer.bytesPerRow % 4 == 0:
            return buffer
        case .rgba8 where buffer.bytesPerRow % 4 == 0:
            if buffer.isOpaque { return buffer }  // at once for a JPEG's pixels (PixelBuffer.isKnownOpaque)
            let output = try PixelBuffer(
                width: buffer.width, height: buffer.height, format: .premultipliedRGBA8,
                zeroed: false)
            try PixmanImage(output).composite(
                .source, source: PixmanImage(buffer, opaque: true),
                mask: PixmanImage(buffer))
            return output
        default:
            // 16-bit, or rows padded to an odd length: WICore's conversion gives packed premultiplied RGBA8.
            return try buffer.converted(to: .premultipliedRGBA8)
        }
    }

    /// A new buffer for pixman to draw a result for a frame in `format` into (transparent unless `zeroed` is false):
    /// 8-bit formats are kept, 16-bit ones are drawn in premultiplied 8 bits.
    static func output(width: Int, height: Int, for format: PixelFormat, zeroed: Bool = true) throws(ImageError)
        -> PixelBuffer
    {
        let drawn: PixelFormat = format == .rgba8 ? .rgba8 : .premultipliedRGBA8
        return try PixelBuffer(width: width, height: height, format: drawn, zeroed: zeroed)
    }

    /// The result pixman drew into `buffer` (from `output(...)`), finished as `format`; `opaque` when every pixel of
    /// it is known opaque (then kept as is, and marked so).
    static func finished(_ buffer: PixelBuffer, as format: PixelFormat, opaque: Bool = false) throws(ImageError)
        -> PixelBuffer
    {
        if buffer.format == .rgba8 && !opaque { AlphaLoops.unpremultiplyInPlace(buffer) }
        var result = try buffer.converted(to: format)
        result.isKnownOpaque = opaque
        return result
    }
}

extension Image {
    /// Applies `body` to every frame, after checking the output size against the image's pixel limit.
    ///
    /// Frame durations, loop count, format, metadata and flags are kept (the image manager adds `.transformed`).
    func transformingFrames(outputSize: PixelSize, _ body: (PixelBuffer) throws(ImageError) -> PixelBuffer)
        throws(ImageError) -> Image
    {
        try (decodeOptions ?? DecodeOptions()).checkPixelLimit(outputSize, frames: frameCount)
        var output: [ImageFrame] = []
        output.reserveCapacity(frameCount)
        for index in 0..<frameCount {
            try WorkerPool.checkCancellation()
            let frame = try frame(at: index)
            output.append(ImageFrame(pixels: try body(frame.pixels), duration: frame.duration))
        }
        return with(frames: output)
    }
}

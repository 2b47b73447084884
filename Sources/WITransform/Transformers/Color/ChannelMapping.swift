import WICore

/// Runs a per-pixel colour operation on every frame, on straight (not premultiplied) samples, keeping each frame's
/// depth: 8-bit frames as RGBA8, 16-bit frames as RGBA16 (premultiplied frames come back premultiplied).
enum ChannelMapping {
    /// `image` with `eight` applied to each RGBA8 pixel of 8-bit frames and `sixteen` to each RGBA16 pixel of
    /// 16-bit ones (`pixels` is the frame's packed samples, four per pixel; alpha is theirs to keep). The pool
    /// job's cancellation is checked between rows.
    static func map(
        _ image: Image, eight: (UnsafeMutableBufferPointer<UInt8>) -> Void,
        sixteen: (UnsafeMutableBufferPointer<UInt16>) -> Void
    ) throws(ImageError) -> Image {
        try image.transformingFrames(outputSize: image.size) { (frame) throws(ImageError) -> PixelBuffer in
            let wide = frame.format == .rgba16 || frame.format == .premultipliedRGBA16
            let straight = try frame.converted(to: wide ? .rgba16 : .rgba8)
            var output = try PixelBuffer(
                width: frame.width, height: frame.height, format: straight.format, zeroed: false)
            let rowBytes = frame.width * straight.format.bytesPerPixel
            try straight.withUnsafeBytes { (source) throws(ImageError) in
                let target = output.storage.bytes
                for y in 0..<frame.height {
                    if y & 15 == 0 { try WorkerPool.checkCancellation() }
                    let row = target + y * output.bytesPerRow
                    row.copyMemory(from: source.baseAddress! + y * straight.bytesPerRow, byteCount: rowBytes)
                    if wide {
                        sixteen(
                            UnsafeMutableBufferPointer(
                                start: row.assumingMemoryBound(to: UInt16.self), count: frame.width * 4))
                    } else {
                        eight(
                            UnsafeMutableBufferPointer(
                                start: row.assumingMemoryBound(to: UInt8.self), count: frame.width * 4))
                    }
                }
            }
            if frame.format == .premultipliedRGBA8 || frame.format == .premultipliedRGBA16 {
                output = try output.converted(to: frame.format)
            }
            return output
        }
    }
}

import WICore

/// Runs a whole-frame operation on every frame's straight samples, keeping each frame's depth: 8-bit frames as
/// packed RGBA8 samples, 16-bit frames as packed RGBA16 (premultiplied frames come back premultiplied).
enum FrameSamples {
    /// `image` with each 8-bit frame's samples replaced by `eight`'s result and each 16-bit frame's by
    /// `sixteen`'s (same count; the frame's width, height and whether it is opaque given), the output size checked
    /// against the pixel limit. A frame's pixels are copied once in and once out.
    static func map(
        _ image: Image, eight: ([UInt8], Int, Int, Bool) throws(ImageError) -> [UInt8],
        sixteen: ([UInt16], Int, Int, Bool) throws(ImageError) -> [UInt16]
    ) throws(ImageError) -> Image {
        try image.transformingFrames(outputSize: image.size) { (frame) throws(ImageError) -> PixelBuffer in
            let wide = frame.format == .rgba16 || frame.format == .premultipliedRGBA16
            let straight = try frame.converted(to: wide ? .rgba16 : .rgba8)
            var output =
                wide
                ? try run(sixteen, on: straight, samples: UInt16.self)
                : try run(eight, on: straight, samples: UInt8.self)
            if frame.format == .premultipliedRGBA8 || frame.format == .premultipliedRGBA16 {
                output = try output.converted(to: frame.format)
            }
            return output
        }
    }

    /// `body` on `pixels`' samples (packed rows, one copy in) and its result as a buffer of the same format (one
    /// copy out).
    private static func run<Sample: FixedWidthInteger & UnsignedInteger>(
        _ body: ([Sample], Int, Int, Bool) throws(ImageError) -> [Sample], on pixels: PixelBuffer, samples: Sample.Type
    ) throws(ImageError) -> PixelBuffer {
        let rowSamples = pixels.width * 4
        let rowBytes = rowSamples * MemoryLayout<Sample>.stride
        var input = [Sample](repeating: 0, count: rowSamples * pixels.height)
        input.withUnsafeMutableBytes { target in
            pixels.withUnsafeBytes { source in
                for y in 0..<pixels.height {
                    (target.baseAddress! + y * rowBytes).copyMemory(
                        from: source.baseAddress! + y * pixels.bytesPerRow,
                        byteCount: rowBytes)
                }
            }
        }
        let result = try body(input, pixels.width, pixels.height, pixels.isOpaque)
        let output = try PixelBuffer(width: pixels.width, height: pixels.height, format: pixels.format, zeroed: false)
        result.withUnsafeBytes { source in
            for y in 0..<pixels.height {
                (output.storage.bytes + y * output.bytesPerRow).copyMemory(
                    from: source.baseAddress! + y * rowBytes,
                    byteCount: rowBytes)
            }
        }
        return output
    }

    /// Alpha back to its maximum in packed RGBA samples.
    static func makeOpaque<Sample: FixedWidthInteger & UnsignedInteger>(_ samples: inout [Sample]) {
        for index in stride(from: 3, to: samples.count, by: 4) { samples[index] = .max }
    }
}

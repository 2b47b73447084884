import WICore

/// Runs a whole-frame operation on every frame's straight samples, keeping each frame's depth: 8-bit frames as
/// packed RGBA8 samples, 16-bit frames as packed RGBA16 (premultiplied frames come back premultiplied).
enum FrameSamples {
    /// `image` with each 8-bit frame's samples replaced by `eight`'s result and each 16-bit frame's by
    /// `sixteen`'s (same count; the frame's width, height and whether it is opaque given), the output size checked
    /// against the pixel limit.
    static func map(_ image: Image, eight: ([UInt8], Int, Int, Bool) throws(ImageError) -> [UInt8],
                    sixteen: ([UInt16], Int, Int, Bool) throws(ImageError) -> [UInt16]) throws(ImageError) -> Image {
        try image.transformingFrames(outputSize: image.size) { (frame) throws(ImageError) -> PixelBuffer in
            let wide = frame.format == .rgba16 || frame.format == .premultipliedRGBA16
            let straight = try frame.converted(to: wide ? .rgba16 : .rgba8)
            var output: PixelBuffer
            if wide {
                let samples = straight.packedBytes().withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
                let result = try sixteen(samples, frame.width, frame.height, frame.isOpaque)
                let bytes = result.withUnsafeBytes { Array($0) }
                output = try PixelBuffer(width: frame.width, height: frame.height, format: .rgba16, bytes: bytes)
            } else {
                let result = try eight(straight.packedBytes(), frame.width, frame.height, frame.isOpaque)
                output = try PixelBuffer(width: frame.width, height: frame.height, format: .rgba8, bytes: result)
            }
            if frame.format == .premultipliedRGBA8 || frame.format == .premultipliedRGBA16 {
                output = try output.converted(to: frame.format)
            }
            return output
        }
    }

    /// Alpha back to its maximum in packed RGBA samples.
    static func makeOpaque<Sample: FixedWidthInteger & UnsignedInteger>(_ samples: inout [Sample]) {
        for index in stride(from: 3, to: samples.count, by: 4) { samples[index] = .max }
    }
}

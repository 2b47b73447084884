#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import WICore

/// thumbor's `blur(radius[, sigma])`, pixel for pixel: a Gaussian kernel of `2 x radius + 1` taps with standard
/// deviation `sigma` (`radius` when 0), normalized to sum 1, applied across the rows and then down the columns of
/// straight-alpha RGBA8 (alpha too, unless the image is opaque), edges repeated, each pass truncated to 8 bits as thumbor's `_convolution`
/// extension does. Unlike WITransform's `BlurTransformer` (radius = sigma, no truncation), the window ends at
/// `radius`, so `blur(4)` and `blur(4, 2)` differ as they do in thumbor.
///
/// Thread safety: an immutable value; safe from any thread.
struct ThumborBlur: Sendable {
    /// Taps on each side of the centre.
    let radius: Int
    /// The kernel, normalized (`2 x radius + 1` weights).
    let kernel: [Double]

    /// The kernel for `radius` (at least 1) and `sigma` (0: `radius`), computed as thumbor computes it (the powers
    /// of e, the same divisions, the same order), so the truncated results match bit for bit.
    init(radius: Int, sigma: Double) {
        self.radius = radius
        let sigma = sigma == 0 ? Double(radius) : sigma
        let twoSigmaSquared = 2 * sigma * sigma
        var weights: [Double] = []
        weights.reserveCapacity(2 * radius + 1)
        for column in 0...(2 * radius) {
            let offset = column - radius
            weights.append(pow(M_E, -(Double(offset * offset) / twoSigmaSquared)) / (twoSigmaSquared * Double.pi).squareRoot())
        }
        var sum = 0.0
        for weight in weights { sum += weight }
        kernel = sum == 0 ? weights : weights.map { $0 / sum }
    }

    /// Every frame of `image`, blurred.
    func apply(to image: Image) throws(ImageError) -> Image {
        try image.mappingFrames { (pixels) throws(ImageError) in try apply(to: pixels) }
    }

    /// `pixels` (any format, converted to RGBA8) blurred: across, then down.
    func apply(to pixels: PixelBuffer) throws(ImageError) -> PixelBuffer {
        let source = try pixels.converted(to: .rgba8).packedBytes()
        let (width, height) = (pixels.width, pixels.height)
        var across = [UInt8](repeating: 0, count: source.count)
        pass(source, into: &across, lines: height, length: width, pixelStep: 4, lineStep: width * 4)
        var down = [UInt8](repeating: 0, count: source.count)
        pass(across, into: &down, lines: width, length: height, pixelStep: width * 4, lineStep: 4)
        // thumbor blurs RGB data when the image has no alpha: opaque stays opaque.
        if pixels.isOpaque { for index in stride(from: 3, to: down.count, by: 4) { down[index] = 255 } }
        return try PixelBuffer(width: width, height: height, format: .rgba8, bytes: down)
    }

    /// One direction: `lines` lines of `length` pixels, `pixelStep` bytes between neighbours in a line and
    /// `lineStep` between lines; positions outside a line take its end pixel.
    private func pass(_ input: [UInt8], into output: inout [UInt8], lines: Int, length: Int, pixelStep: Int,
                      lineStep: Int) {
        let last = length - 1
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                kernel.withUnsafeBufferPointer { weights in
                    for line in 0..<lines {
                        let base = line * lineStep
                        for position in 0..<length {
                            var sums: (Double, Double, Double, Double) = (0, 0, 0, 0)
                            for tap in 0...(2 * radius) {
                                let at = base + min(max(position - radius + tap, 0), last) * pixelStep
                                let weight = weights[tap]
                                sums.0 += Double(source[at]) * weight
                                sums.1 += Double(source[at + 1]) * weight
                                sums.2 += Double(source[at + 2]) * weight
                                sums.3 += Double(source[at + 3]) * weight
                            }
                            let to = base + position * pixelStep
                            target[to] = Self.truncated(sums.0)
                            target[to + 1] = Self.truncated(sums.1)
                            target[to + 2] = Self.truncated(sums.2)
                            target[to + 3] = Self.truncated(sums.3)
                        }
                    }
                }
            }
        }
    }

    /// thumbor's `ADJUST_COLOR((int)sum)`: toward zero, then clamped to 0...255.
    private static func truncated(_ value: Double) -> UInt8 {
        UInt8(min(max(Int(value.rounded(.towardZero)), 0), 255))
    }
}

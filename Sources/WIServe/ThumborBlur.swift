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

    /// `pixels` (any format, converted to RGBA8) blurred: across, then down (thumbor's two `_convolution` passes).
    func apply(to pixels: PixelBuffer) throws(ImageError) -> PixelBuffer {
        let source = try pixels.converted(to: .rgba8).packedBytes()
        let (width, height) = (pixels.width, pixels.height)
        let across = ThumborConvolution(weights: kernel, columns: kernel.count, normalize: false)
        let down = ThumborConvolution(weights: kernel, columns: 1, normalize: false)
        guard let across, let down else { throw ImageError(.invalidArgument, "blur kernel of \(kernel.count) taps") }
        var output = try down.convolve(try across.convolve(source, width: width, height: height), width: width, height: height)
        // thumbor blurs RGB data when the image has no alpha: opaque stays opaque.
        if pixels.isOpaque { ThumborConvolution.makeOpaque(&output) }
        return try PixelBuffer(width: width, height: height, format: .rgba8, bytes: output)
    }
}

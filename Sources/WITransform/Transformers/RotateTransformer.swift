import WICore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Rotates by any angle, counter-clockwise as seen on screen, with bilinear sampling; uncovered corners are
/// transparent.
///
/// Without `fitsCanvas` the output keeps the input's size (corners of the rotated image are cut off); with it the
/// canvas grows to the rotated bounding box, each side rounded to the nearest pixel (300x300 at 45 degrees gives
/// 424x424). Key: `Rotate(45,fit)` or `Rotate(45,keepSize)`.
///
/// ```swift
/// let tilted = try RotateTransformer(degrees: 30, fitsCanvas: true).transform(image)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct RotateTransformer: ImageTransformer, Hashable {
    /// The angle in degrees; positive turns counter-clockwise.
    public let degrees: Double
    /// Whether the canvas grows to hold the whole rotated image.
    public let fitsCanvas: Bool

    /// A rotation by `degrees`, growing the canvas to the rotated bounding box when `fitsCanvas` is true.
    ///
    /// Throws `.invalidArgument` when `degrees` is NaN or infinite.
    public init(degrees: Double, fitsCanvas: Bool = false) throws(ImageError) {
        try ArgumentCheck.finite(degrees, "rotation degrees")
        self.degrees = degrees
        self.fitsCanvas = fitsCanvas
    }

    public var key: String {
        TransformerKey.make("Rotate", [TransformerKey.number(degrees), fitsCanvas ? "fit" : "keepSize"])
    }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        let radians = degrees.truncatingRemainder(dividingBy: 360) * .pi / 180
        let (cosine, sine) = (cos(radians), sin(radians))
        let outputSize = fitsCanvas ? Self.boundingSize(of: image.size, cosine: cosine, sine: sine) : image.size
        // Destination -> source: move the output centre to the origin, turn back, move to the source centre.
        let source = image.size
        let matrix = AffineMatrix.translation(Double(source.width) / 2, Double(source.height) / 2)
            .after(AffineMatrix(a: cosine, b: sine, c: -sine, d: cosine))
            .after(.translation(-Double(outputSize.width) / 2, -Double(outputSize.height) / 2))
        let filter: PixmanImage.Filter = Self.isQuarterTurn(cosine: cosine, sine: sine) ? .nearest : .bilinear
        return try image.transformingFrames(outputSize: outputSize) { buffer throws(ImageError) in
            let pixels = try WorkingPixels.premultiplied(buffer)
            let output = try WorkingPixels.output(
                width: outputSize.width, height: outputSize.height,
                for: buffer.format)
            let rotated = try PixmanImage(pixels)
            try rotated.setSampling(matrix, filter: filter, padEdges: false)
            try PixmanImage(output).composite(.source, source: rotated)
            return try WorkingPixels.finished(output, as: buffer.format)
        }
    }

    /// The rotated bounding box, each side rounded to the nearest pixel and at least 1.
    static func boundingSize(of size: PixelSize, cosine: Double, sine: Double) -> PixelSize {
        let w = Double(size.width)
        let h = Double(size.height)
        return PixelSize(
            width: max(1, Int((w * abs(cosine) + h * abs(sine)).rounded())),
            height: max(1, Int((w * abs(sine) + h * abs(cosine)).rounded())))
    }

    /// Multiples of 90 degrees move whole pixels, so they are copied exactly rather than interpolated.
    static func isQuarterTurn(cosine: Double, sine: Double) -> Bool {
        min(abs(cosine), abs(sine)) < 1e-12
    }
}

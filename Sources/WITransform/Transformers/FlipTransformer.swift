import WICore

/// Mirrors the image left-right, top-bottom, or both; pixels are moved exactly, never resampled.
///
/// Keys: `Flip(horizontal)`, `Flip(vertical)`, `Flip(horizontal,vertical)`, `Flip(none)`.
///
/// ```swift
/// let mirrored = try FlipTransformer(horizontal: true).transform(image)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct FlipTransformer: ImageTransformer, Hashable {
    /// Mirror left-right.
    public let horizontal: Bool
    /// Mirror top-bottom.
    public let vertical: Bool

    public init(horizontal: Bool = false, vertical: Bool = false) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public var key: String {
        let axes = (horizontal ? ["horizontal"] : []) + (vertical ? ["vertical"] : [])
        return TransformerKey.make("Flip", axes.isEmpty ? ["none"] : axes)
    }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        guard horizontal || vertical else { return image }
        return try image.transformingFrames(outputSize: image.size) { buffer throws(ImageError) in
            let source = try WorkingPixels.premultiplied(buffer)
            let output = try WorkingPixels.output(
                width: buffer.width, height: buffer.height,
                for: buffer.format, zeroed: false)
            // Destination x maps to source width - x (pixel centres: x + 0.5 -> width - x - 0.5).
            let matrix = AffineMatrix(
                a: horizontal ? -1 : 1, d: vertical ? -1 : 1,
                tx: horizontal ? Double(buffer.width) : 0,
                ty: vertical ? Double(buffer.height) : 0)
            let image = try PixmanImage(source)
            try image.setSampling(matrix, filter: .nearest, padEdges: false)
            try PixmanImage(output).composite(.source, source: image)
            return try WorkingPixels.finished(output, as: buffer.format)
        }
    }
}

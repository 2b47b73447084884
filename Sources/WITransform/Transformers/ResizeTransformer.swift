import WICore

/// Resizes to a target size: stretched (`fill`), letterboxed on a canvas of exactly that size (`aspectFit`), or
/// scaled to cover it and centre-cropped (`aspectFill`).
///
/// Shrinking averages exactly the source area under each output pixel (no aliasing); enlarging is bilinear.
/// Key: `Resize(256x256,aspectFit)`.
///
/// ```swift
/// let thumbnail = try ResizeTransformer(width: 256, height: 256, mode: .aspectFill).transform(image)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct ResizeTransformer: ImageTransformer, Hashable {
    /// How the source fits the target size.
    public enum Mode: String, Sendable, Hashable {
        /// Stretch to exactly the size; the aspect ratio may change.
        case fill
        /// Keep the aspect ratio, fit inside, centre on a canvas of exactly the size with transparent bars.
        case aspectFit
        /// Keep the aspect ratio, cover the size, crop the overflow equally on both sides.
        case aspectFill
    }

    /// The output size in pixels.
    public let size: PixelSize

    /// The longest output side accepted: 32767 pixels, the most pixman (which draws the output) can address.
    public static let maximumSide = PixmanImage.maximumSide
    public let mode: Mode

    /// A resize to `width` x `height` in `mode`.
    ///
    /// Throws `.invalidArgument` unless both sides are in 1...`maximumSide` and `width x height` is at most
    /// `DecodeOptions.defaultPixelLimit`.
    public init(width: Int, height: Int, mode: Mode = .fill) throws(ImageError) {
        self.size = try Self.checkedSize(width: width, height: height, "resize")
        self.mode = mode
    }

    /// `width` x `height` checked as an output size: both sides in 1...`maximumSide`, at most
    /// `DecodeOptions.defaultPixelLimit` pixels; `.invalidArgument` naming `<name> width` (height, size) otherwise.
    static func checkedSize(width: Int, height: Int, _ name: String) throws(ImageError) -> PixelSize {
        try ArgumentCheck.within(width, 1...maximumSide, "\(name) width")
        try ArgumentCheck.within(height, 1...maximumSide, "\(name) height")
        let size = PixelSize(width: width, height: height)
        guard size.area <= DecodeOptions.defaultPixelLimit else {
            throw ArgumentCheck.invalid(
                "\(name) size", "have at most \(DecodeOptions.defaultPixelLimit) pixels",
                "\(size)")
        }
        return size
    }

    public var key: String { TransformerKey.make("Resize", ["\(size)", mode.rawValue]) }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        let placement = placement(for: image.size)
        return try image.transformingFrames(outputSize: size) { buffer throws(ImageError) in
            if mode == .fill { return try Resampling.resized(buffer, to: size) }
            let source = try WorkingPixels.premultiplied(buffer)
            let output = try WorkingPixels.output(width: size.width, height: size.height, for: buffer.format)
            try Resampling.draw(
                source, into: PixmanImage(output), scaledWidth: placement.width,
                scaledHeight: placement.height, originX: placement.x, originY: placement.y)
            return try WorkingPixels.finished(output, as: buffer.format)
        }
    }

    /// Where the scaled source lies on the output canvas (its size, and its top-left corner, negative when cropped).
    func placement(for source: PixelSize) -> (width: Int, height: Int, x: Int, y: Int) {
        let ratioX = Double(size.width) / Double(source.width)
        let ratioY = Double(size.height) / Double(source.height)
        let ratio = mode == .aspectFit ? min(ratioX, ratioY) : max(ratioX, ratioY)
        var width = max(1, Int((Double(source.width) * ratio).rounded()))
        var height = max(1, Int((Double(source.height) * ratio).rounded()))
        switch mode {
        case .fill: (width, height) = (size.width, size.height)
        case .aspectFit: (width, height) = (min(width, size.width), min(height, size.height))
        case .aspectFill: (width, height) = (max(width, size.width), max(height, size.height))
        }
        return (width, height, (size.width - width) / 2, (size.height - height) / 2)
    }
}

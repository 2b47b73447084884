import WICore

/// Scales to cover a size with the aspect ratio kept, then keeps the window of that size where the eye goes:
/// edges, saturated colour and skin tones, as libvips' `smartcrop(interesting=attention)` scores them.
///
/// The scaling is `ResizeTransformer`'s `.aspectFill` (same size, same resampling); only the window's position
/// differs from its centre crop. The window is chosen on the first frame, on a copy 64 pixels on its long side
/// (see `AttentionMap`), and every frame is cut the same way. Deterministic: the same pixels give the same window.
/// Key: `AttentionCrop(256x256)`.
///
/// ```swift
/// let avatar = try AttentionCropTransformer(width: 256, height: 256).transform(photo)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct AttentionCropTransformer: ImageTransformer, Hashable {
    /// The output size in pixels.
    public let size: PixelSize

    /// Where the window lies: the size the image is scaled to, and the window's top-left corner in it.
    public struct Placement: Sendable, Hashable {
        /// The image scaled to cover the output size, aspect ratio kept.
        public let scaledSize: PixelSize
        /// The left edge of the window in the scaled image, in 0...`scaledSize.width - size.width`.
        public let x: Int
        /// The top edge of the window in the scaled image, in 0...`scaledSize.height - size.height`.
        public let y: Int
    }

    /// An attention crop to `width` x `height`.
    ///
    /// Throws `.invalidArgument` unless both sides are in 1...`ResizeTransformer.maximumSide` and `width x height`
    /// is at most `DecodeOptions.defaultPixelLimit`, as for `ResizeTransformer`.
    public init(width: Int, height: Int) throws(ImageError) {
        self.size = try ResizeTransformer.checkedSize(width: width, height: height, "attention crop")
    }

    public var key: String { TransformerKey.make("AttentionCrop", ["\(size)"]) }

    /// The window this transformer cuts from `image` (computed from its first frame, as `transform` does).
    public func placement(for image: Image) throws(ImageError) -> Placement {
        // A ResizeTransformer with this size always passes its own checks, which `init` made.
        let cover = try ResizeTransformer(width: size.width, height: size.height, mode: .aspectFill)
            .placement(for: image.size)
        let scaled = PixelSize(width: cover.width, height: cover.height)
        let window = try AttentionMap.window(in: image.pixels, scaled: scaled, crop: size)
        return Placement(scaledSize: scaled, x: window.x, y: window.y)
    }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        let placement = try placement(for: image)
        return try image.transformingFrames(outputSize: size) { buffer throws(ImageError) in
            let source = try WorkingPixels.premultiplied(buffer)
            let output = try WorkingPixels.output(width: size.width, height: size.height, for: buffer.format)
            try Resampling.draw(
                source, into: PixmanImage(output), scaledWidth: placement.scaledSize.width,
                scaledHeight: placement.scaledSize.height, originX: -placement.x,
                originY: -placement.y)
            return try WorkingPixels.finished(output, as: buffer.format)
        }
    }
}

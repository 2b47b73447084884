import WICore

/// Draws every frame, centred, over a canvas of one colour: a frame's own size merges its transparency with the
/// colour (a background), a larger size pads it (a letterbox), a smaller one crops it around the centre.
///
/// Two arithmetics, both thumbor 7.8's byte for byte (Tests/Fixtures/serve-*): `.sourceOver` is Pillow's `paste`
/// with the frame as its own mask (thumbor's `fill()` canvas and `round_corner()` corners), `.composite` is
/// thumbor's `_composite` (its `background_color()`). The output is straight RGBA8. Key:
/// `Canvas(512x512,#ffffffff,over)`, `Canvas(frame,#00000000,composite)`.
///
/// ```swift
/// let letterboxed = try CanvasTransformer(size: PixelSize(width: 512, height: 512), color: .white).transform(image)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct CanvasTransformer: ImageTransformer, Hashable {
    /// How a frame's pixels combine with the canvas's colour.
    public enum Blending: String, Hashable, Sendable {
        /// Straight-alpha source-over, rounded to nearest (Pillow's `paste` with a mask).
        case sourceOver = "over"
        /// thumbor's `_composite`: both alphas weighed in double precision, each channel truncated.
        case composite
    }

    /// The canvas's size; nil: each frame's own.
    public let size: PixelSize?
    public let color: RGBAColor
    public let blending: Blending

    /// Throws `.invalidArgument` unless each side of `size` is in 1...`ImageCoding.Geometry.maximumSide`.
    public init(size: PixelSize? = nil, color: RGBAColor, blending: Blending = .sourceOver) throws(ImageError) {
        if let size {
            try ArgumentCheck.side(size.width, "canvas width")
            try ArgumentCheck.side(size.height, "canvas height")
        }
        self.size = size
        self.color = color
        self.blending = blending
    }

    public var key: String {
        TransformerKey.make(
            "Canvas", [size.map { "\($0.width)x\($0.height)" } ?? "frame", color.hexString, blending.rawValue])
    }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        try image.transformingFrames(outputSize: size ?? image.size) { (frame) throws(ImageError) -> PixelBuffer in
            let canvas = size ?? frame.size
            return try Compositor.drawn(
                frame, over: color, canvas: canvas, at: (canvas.width - frame.width) / 2,
                (canvas.height - frame.height) / 2, blending: blending)
        }
    }
}

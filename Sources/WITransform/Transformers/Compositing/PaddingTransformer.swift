import WICore

/// Extends every frame by a border of one colour, a given width on each side, the frame drawn over the colour at
/// (`left`, `top`): a frame, a mat, or thumbor's `frame()` (which pads by the widths its nine-patch image gives,
/// over opaque white, with `.composite`).
///
/// The blendings are `CanvasTransformer`'s, byte for byte thumbor 7.8's (Tests/Fixtures/serve-frame). The output is
/// straight RGBA8, `left + width + right` by `top + height + bottom`. Key: `Padding(2,0,3,1,#ffffffff,composite)`.
///
/// ```swift
/// let matted = try PaddingTransformer(left: 8, top: 8, right: 8, bottom: 24, color: .white).transform(image)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct PaddingTransformer: ImageTransformer, Hashable {
    /// The border's width on the left, in pixels.
    public let left: Int
    /// The border's height at the top, in pixels.
    public let top: Int
    /// The border's width on the right, in pixels.
    public let right: Int
    /// The border's height at the bottom, in pixels.
    public let bottom: Int
    /// The border's colour, also under the frame's transparent pixels.
    public let color: RGBAColor
    /// How a frame's pixels combine with `color`.
    public let blending: CanvasTransformer.Blending

    /// Throws `.invalidArgument` unless each width is in 0...`ImageCoding.Geometry.maximumSide`.
    public init(
        left: Int, top: Int, right: Int, bottom: Int, color: RGBAColor,
        blending: CanvasTransformer.Blending = .sourceOver
    ) throws(ImageError) {
        let range = 0...ImageCoding.Geometry.maximumSide
        try ArgumentCheck.within(left, range, "left padding")
        try ArgumentCheck.within(top, range, "top padding")
        try ArgumentCheck.within(right, range, "right padding")
        try ArgumentCheck.within(bottom, range, "bottom padding")
        (self.left, self.top, self.right, self.bottom) = (left, top, right, bottom)
        self.color = color
        self.blending = blending
    }

    public var key: String {
        TransformerKey.make(
            "Padding", ["\(left)", "\(top)", "\(right)", "\(bottom)", color.hexString, blending.rawValue])
    }

    /// The output's size for an input of `size`; `.invalidArgument` when a side passes
    /// `ImageCoding.Geometry.maximumSide`.
    func outputSize(for size: PixelSize) throws(ImageError) -> PixelSize {
        let output = PixelSize(width: size.width + left + right, height: size.height + top + bottom)
        try ArgumentCheck.side(output.width, "padded width")
        try ArgumentCheck.side(output.height, "padded height")
        return output
    }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        try image.transformingFrames(outputSize: try outputSize(for: image.size)) {
            (frame) throws(ImageError) -> PixelBuffer in
            try Compositor.drawn(
                frame, over: color, canvas: try outputSize(for: frame.size), at: left, top, blending: blending)
        }
    }
}

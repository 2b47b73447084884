import WICore

/// The filter transformers as Nuke-style factories, for a context key or a pipeline:
///
/// ```swift
/// context[.imageTransformer] = PipelineTransformer([try .gaussianBlur(radius: 4), try .sharpen(amount: 1, radius: 0)])
/// ```
extension ImageTransformer where Self == WaveletSharpenTransformer {
    /// `WaveletSharpenTransformer(amount:radius:luminanceOnly:)`.
    public static func sharpen(amount: Double, radius: Double, luminanceOnly: Bool = false) throws(ImageError) -> Self {
        try WaveletSharpenTransformer(amount: amount, radius: radius, luminanceOnly: luminanceOnly)
    }
}

extension ImageTransformer where Self == ConvolutionTransformer {
    /// `ConvolutionTransformer(weights:columns:normalize:)`.
    public static func convolution(weights: [Double], columns: Int, normalize: Bool = true) throws(ImageError) -> Self {
        try ConvolutionTransformer(weights: weights, columns: columns, normalize: normalize)
    }

    /// `ConvolutionTransformer.gaussianBlur(radius:sigma:)`: thumbor's `blur(R,S)`.
    public static func gaussianBlur(radius: Int, sigma: Double = 0) throws(ImageError) -> Self {
        try ConvolutionTransformer.gaussianBlur(radius: radius, sigma: sigma)
    }
}

extension ImageTransformer where Self == NoiseTransformer {
    /// `NoiseTransformer(amount:seed:)`.
    public static func noise(amount: Int, seed: UInt32) throws(ImageError) -> Self {
        try NoiseTransformer(amount: amount, seed: seed)
    }
}

extension ImageTransformer where Self == TrimTransformer {
    /// `TrimTransformer(corner:tolerance:)`.
    public static func trim(corner: TrimTransformer.Corner = .topLeft, tolerance: Int = 0) throws(ImageError) -> Self {
        try TrimTransformer(corner: corner, tolerance: tolerance)
    }
}

extension ImageTransformer where Self == CanvasTransformer {
    /// `CanvasTransformer(size:color:)`: every frame centred on a `width` x `height` canvas of `color`.
    public static func canvas(width: Int, height: Int, color: RGBAColor) throws(ImageError) -> Self {
        try CanvasTransformer(size: PixelSize(width: width, height: height), color: color)
    }

    /// `CanvasTransformer(color:blending:)`: every frame's transparency merged with `color`.
    public static func background(
        _ color: RGBAColor,
        blending: CanvasTransformer.Blending = .sourceOver
    ) throws(ImageError) -> Self {
        try CanvasTransformer(color: color, blending: blending)
    }
}

extension ImageTransformer where Self == OverlayTransformer {
    /// `OverlayTransformer(_:identifier:x:y:transparency:maximumWidthPercent:maximumHeightPercent:)`.
    public static func overlay(
        _ overlay: Image, identifier: String, x: OverlayTransformer.Position,
        y: OverlayTransformer.Position, transparency: Int = 0, maximumWidthPercent: Int? = nil,
        maximumHeightPercent: Int? = nil
    ) throws(ImageError) -> Self {
        try OverlayTransformer(
            overlay, identifier: identifier, x: x, y: y, transparency: transparency,
            maximumWidthPercent: maximumWidthPercent, maximumHeightPercent: maximumHeightPercent)
    }
}

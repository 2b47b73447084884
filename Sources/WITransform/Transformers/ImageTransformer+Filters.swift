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

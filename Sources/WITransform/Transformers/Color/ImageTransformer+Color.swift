import WICore

/// The colour transformers as Nuke-style factories: `context[.imageTransformer] = try .brightness(20)`.
extension ImageTransformer where Self == ToneTablesTransformer {
    /// `ToneTablesTransformer.brightness(_:)`: `context[.imageTransformer] = try .brightness(20)`.
    public static func brightness(_ percent: Int) throws(ImageError) -> Self {
        try ToneTablesTransformer.brightness(percent)
    }
    /// `ToneTablesTransformer.contrast(_:)`.
    public static func contrast(_ percent: Int) throws(ImageError) -> Self {
        try ToneTablesTransformer.contrast(percent)
    }
}

extension ImageTransformer where Self == SaturationTransformer {
    /// `SaturationTransformer(change:)`: `context[.imageTransformer] = try .saturation(0.5)`.
    public static func saturation(_ change: Double) throws(ImageError) -> Self {
        try SaturationTransformer(change: change)
    }
}

extension ImageTransformer where Self == GrayscaleTransformer {
    /// `GrayscaleTransformer()`: `context[.imageTransformer] = .grayscale`.
    public static var grayscale: Self { GrayscaleTransformer() }
}

extension ImageTransformer where Self == EqualizeTransformer {
    /// `EqualizeTransformer()`: `context[.imageTransformer] = .equalize`.
    public static var equalize: Self { EqualizeTransformer() }
}

import WICore

/// The geometry and basic transformers as Nuke-style factories:
///
/// ```swift
/// context[.imageTransformer] = .pipeline([try .resize(width: 256, height: 256, mode: .aspectFill),
///                                         try .roundCorner(radius: 16)])
/// ```
extension ImageTransformer where Self == ResizeTransformer {
    /// `ResizeTransformer(width:height:mode:)`.
    public static func resize(width: Int, height: Int, mode: ResizeTransformer.Mode = .fill) throws(ImageError) -> Self
    {
        try ResizeTransformer(width: width, height: height, mode: mode)
    }
}

extension ImageTransformer where Self == CropTransformer {
    /// `CropTransformer(x:y:width:height:)`.
    public static func crop(x: Int, y: Int, width: Int, height: Int) throws(ImageError) -> Self {
        try CropTransformer(x: x, y: y, width: width, height: height)
    }
}

extension ImageTransformer where Self == AttentionCropTransformer {
    /// `AttentionCropTransformer(width:height:)`: the most interesting `width` x `height` window.
    public static func attentionCrop(width: Int, height: Int) throws(ImageError) -> Self {
        try AttentionCropTransformer(width: width, height: height)
    }
}

extension ImageTransformer where Self == RotateTransformer {
    /// `RotateTransformer(degrees:fitsCanvas:)`.
    public static func rotate(degrees: Double, fitsCanvas: Bool = false) throws(ImageError) -> Self {
        try RotateTransformer(degrees: degrees, fitsCanvas: fitsCanvas)
    }
}

extension ImageTransformer where Self == FlipTransformer {
    /// `FlipTransformer(horizontal:vertical:)`.
    public static func flip(horizontal: Bool = false, vertical: Bool = false) -> Self {
        FlipTransformer(horizontal: horizontal, vertical: vertical)
    }
}

extension ImageTransformer where Self == RoundCornerTransformer {
    /// `RoundCornerTransformer(radius:corners:borderWidth:borderColor:)`.
    public static func roundCorner(
        radius: Double, corners: RoundCornerTransformer.Corners = .all, borderWidth: Double = 0,
        borderColor: RGBAColor = .clear
    ) throws(ImageError) -> Self {
        try RoundCornerTransformer(radius: radius, corners: corners, borderWidth: borderWidth, borderColor: borderColor)
    }
}

extension ImageTransformer where Self == BlurTransformer {
    /// `BlurTransformer(radius:)`: the fast blur (three box passes); thumbor's exact kernel is `.gaussianBlur`.
    public static func blur(radius: Double) throws(ImageError) -> Self {
        try BlurTransformer(radius: radius)
    }
}

extension ImageTransformer where Self == TintTransformer {
    /// `TintTransformer(color:blendMode:)`.
    public static func tint(_ color: RGBAColor, blendMode: TintTransformer.BlendMode = .normal) -> Self {
        TintTransformer(color: color, blendMode: blendMode)
    }
}

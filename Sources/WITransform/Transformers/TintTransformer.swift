import WICore

/// Blends a colour over the image's colours with a blend mode, keeping the image's alpha exactly.
///
/// Each pixel's colour becomes `(1 - a) * image + a * blend(color, image)`, `a` the tint colour's alpha;
/// the blend modes are the PDF/CSS ones pixman implements. With `.normal` and an opaque colour the image becomes a
/// silhouette in that colour. Key: `Tint(#ff000080,multiply)`.
///
/// ```swift
/// let sepia = try TintTransformer(color: RGBAColor(hex: "#704214")!, blendMode: .color).transform(image)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct TintTransformer: ImageTransformer, Hashable {
    /// How the tint colour combines with the image's colour (PDF blend modes).
    public enum BlendMode: String, Sendable, Hashable, CaseIterable {
        case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight, softLight
        case difference, exclusion, hue, saturation, color, luminosity
    }

    public let color: RGBAColor
    public let blendMode: BlendMode

    public init(color: RGBAColor, blendMode: BlendMode = .normal) {
        self.color = color
        self.blendMode = blendMode
    }

    public var key: String { TransformerKey.make("Tint", [color.hexString, blendMode.rawValue]) }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        let op = blendMode.pixmanOperator
        return try image.transformingFrames(outputSize: image.size) { buffer throws(ImageError) in
            // Work on straight colour seen as opaque (pixman's x8b8g8r8), so the blend sees the true colour
            // whatever the alpha; then put the original alpha back with one masked copy (colour IN alpha).
            let straight =
                buffer.format == .rgba8 && buffer.bytesPerRow % 4 == 0
                ? buffer : try buffer.converted(to: .rgba8)
            var blended = straight
            try blended.makeUnique()
            let canvas = try PixmanImage(blended, layout: .exact, opaque: true)
            canvas.composite(op, source: try PixmanImage(solid: color, layout: .exact))
            let output = try WorkingPixels.output(
                width: buffer.width, height: buffer.height,
                for: buffer.format, zeroed: false)
            try PixmanImage(output, layout: .exact)
                .composite(.source, source: canvas, mask: try PixmanImage(straight, layout: .exact))
            return try WorkingPixels.finished(output, as: buffer.format)
        }
    }
}

extension TintTransformer.BlendMode {
    var pixmanOperator: PixmanImage.Operator {
        switch self {
        case .normal: .over
        case .multiply: .multiply
        case .screen: .screen
        case .overlay: .overlay
        case .darken: .darken
        case .lighten: .lighten
        case .colorDodge: .colorDodge
        case .colorBurn: .colorBurn
        case .hardLight: .hardLight
        case .softLight: .softLight
        case .difference: .difference
        case .exclusion: .exclusion
        case .hue: .hue
        case .saturation: .saturation
        case .color: .color
        case .luminosity: .luminosity
        }
    }
}

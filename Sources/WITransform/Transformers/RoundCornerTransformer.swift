import WICore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Rounds chosen corners (antialiased; outside them is transparent) and optionally draws a border along the
/// rounded outline, inside the image.
///
/// The radius is clamped to half the shorter side; the border's inner outline has radius `radius - borderWidth`.
/// Key: `RoundCorner(20,all,2,#ff0000ff)` (radius, corners, border width, border colour).
///
/// ```swift
/// let badge = try RoundCornerTransformer(radius: 24, borderWidth: 2, borderColor: RGBAColor(hex: "#fff")!)
///     .transform(image)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct RoundCornerTransformer: ImageTransformer, Hashable {
    /// Which corners are rounded.
    public struct Corners: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let topLeft = Corners(rawValue: 1 << 0)
        public static let topRight = Corners(rawValue: 1 << 1)
        public static let bottomLeft = Corners(rawValue: 1 << 2)
        public static let bottomRight = Corners(rawValue: 1 << 3)
        public static let all: Corners = [.topLeft, .topRight, .bottomLeft, .bottomRight]

        /// "all", "none", or the corners joined with "+" ("topLeft+bottomRight").
        var name: String {
            if self == .all { return "all" }
            let names = [
                (Corners.topLeft, "topLeft"), (.topRight, "topRight"), (.bottomLeft, "bottomLeft"),
                (.bottomRight, "bottomRight"),
            ].filter { contains($0.0) }.map(\.1)
            return names.isEmpty ? "none" : names.joined(separator: "+")
        }
    }

    /// The corner radius in pixels.
    public let radius: Double
    public let corners: Corners
    /// The border width in pixels (0: no border).
    public let borderWidth: Double
    /// The border colour (straight alpha).
    public let borderColor: RGBAColor

    /// Rounds `corners` with `radius` pixels and draws a `borderWidth`-pixel border in `borderColor`.
    ///
    /// Throws `.invalidArgument` unless `radius` and `borderWidth` are finite and not negative (values larger than
    /// half the shorter side are clamped when the image is transformed).
    public init(radius: Double, corners: Corners = .all, borderWidth: Double = 0, borderColor: RGBAColor = .clear)
        throws(ImageError)
    {
        try ArgumentCheck.nonNegative(radius, "corner radius")
        try ArgumentCheck.nonNegative(borderWidth, "border width")
        self.radius = radius
        self.corners = corners
        self.borderWidth = borderWidth
        self.borderColor = borderColor
    }

    public var key: String {
        TransformerKey.make(
            "RoundCorner",
            [
                TransformerKey.number(radius), corners.name,
                TransformerKey.number(borderWidth), borderColor.hexString,
            ])
    }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        let width = Double(image.width)
        let height = Double(image.height)
        let clamped = min(radius, min(width, height) / 2)
        let outline = RoundedRect.triangles(
            left: 0, top: 0, right: width, bottom: height, radius: clamped,
            corners: corners)
        let inset = min(borderWidth, min(width, height) / 2)
        let inner = RoundedRect.triangles(
            left: inset, top: inset, right: width - inset, bottom: height - inset,
            radius: max(0, clamped - inset), corners: corners)
        let hasBorder = inset > 0 && borderColor.alpha > 0
        return try image.transformingFrames(outputSize: image.size) { buffer throws(ImageError) in
            let source = try WorkingPixels.premultiplied(buffer)
            let output = try WorkingPixels.output(width: buffer.width, height: buffer.height, for: buffer.format)
            let target = try PixmanImage(output)
            let shape = try PixmanImage(maskWidth: buffer.width, height: buffer.height)
            shape.addCoverage(of: outline)
            target.composite(.source, source: try PixmanImage(source), mask: shape)
            if hasBorder {
                // The ring between the outline and the inner outline: outline OUT inner.
                let hole = try PixmanImage(maskWidth: buffer.width, height: buffer.height)
                hole.addCoverage(of: inner)
                shape.composite(.outReverse, source: hole)
                target.composite(.over, source: try PixmanImage(solid: borderColor, layout: .swapped), mask: shape)
            }
            return try WorkingPixels.finished(output, as: buffer.format)
        }
    }
}

/// Rounded rectangles as triangle fans, for pixman's antialiased rasterizer.
enum RoundedRect {
    static func triangles(
        left: Double, top: Double, right: Double, bottom: Double, radius: Double,
        corners: RoundCornerTransformer.Corners
    )
        -> [(PixmanImage.Point, PixmanImage.Point, PixmanImage.Point)]
    {
        guard right > left, bottom > top else { return [] }
        let segments = max(2, min(90, Int((radius.squareRoot() * 4).rounded(.up))))
        var outline: [PixmanImage.Point] = []
        // Clockwise on screen (y down): top-left, top-right, bottom-right, bottom-left; arcs from the angle given.
        let plan: [(RoundCornerTransformer.Corners, Double, Double, Double)] = [
            (.topLeft, left + radius, top + radius, Double.pi),
            (.topRight, right - radius, top + radius, 1.5 * Double.pi),
            (.bottomRight, right - radius, bottom - radius, 0),
            (.bottomLeft, left + radius, bottom - radius, 0.5 * Double.pi),
        ]
        let squareCorners = [(left, top), (right, top), (right, bottom), (left, bottom)]
        for (index, (corner, cx, cy, start)) in plan.enumerated() {
            guard corners.contains(corner), radius > 0 else {
                outline.append(.init(x: squareCorners[index].0, y: squareCorners[index].1))
                continue
            }
            for step in 0...segments {
                let angle = start + Double.pi / 2 * Double(step) / Double(segments)
                outline.append(.init(x: cx + radius * cosine(angle), y: cy + radius * sine(angle)))
            }
        }
        let centre = PixmanImage.Point(x: (left + right) / 2, y: (top + bottom) / 2)
        return outline.indices.map { (centre, outline[$0], outline[($0 + 1) % outline.count]) }
    }

    /// cos and sin with the tiny residues at quarter angles snapped to 0, so straight edges stay straight.
    private static func cosine(_ angle: Double) -> Double { snapped(cos(angle)) }
    private static func sine(_ angle: Double) -> Double { snapped(sin(angle)) }
    private static func snapped(_ value: Double) -> Double { abs(value) < 1e-12 ? 0 : value }
}

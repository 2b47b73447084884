import WICore

/// Draws another image (a watermark, a badge, a logo) over every frame: made more transparent, fitted to a share
/// of the frame's width or height, and placed by pixels or percentages from either edge, centred, or tiled.
///
/// The arithmetic is thumbor 7.8's `watermark()` byte for byte (its `_composite`: both alphas weighed in double
/// precision, each channel truncated; its placement and tiling rules, Python's rounding): checked against thumbor's
/// own output (Tests/Fixtures/serve-watermark). A fitted overlay is resized with `ResizeTransformer` (an area average
/// where thumbor uses Pillow's Lanczos), so its pixels differ from thumbor's, not its size or place. The overlay's
/// first frame is used; the output is straight RGBA8.
///
/// `identifier` names the overlay in the key (its URL, say), since an image has no identity of its own. Key:
/// `Overlay(logo.png,-10,-10,50,25,none)`.
///
/// ```swift
/// let marked = try OverlayTransformer(logo, identifier: "logo", x: .pixels(10, fromEnd: true), y: .center,
///                                     transparency: 30).transform(photo)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct OverlayTransformer: ImageTransformer {
    /// Where the overlay goes along one axis.
    public enum Position: Hashable, Sendable, CustomStringConvertible {
        /// A number of pixels from the start (left, top) or from the end (right, bottom).
        case pixels(Int, fromEnd: Bool)
        /// A percentage of the frame's side from the start or the end.
        case percent(Int, fromEnd: Bool)
        /// Centred.
        case center
        /// Repeated along the axis, the room left spread evenly between the copies.
        case tiled

        /// thumbor's spelling: `10`, `-10`, `10p`, `-10p`, `center`, `repeat`.
        public var description: String {
            switch self {
            case .pixels(let value, let fromEnd): "\(fromEnd ? "-" : "")\(value)"
            case .percent(let value, let fromEnd): "\(fromEnd ? "-" : "")\(value)p"
            case .center: "center"
            case .tiled: "repeat"
            }
        }
    }

    /// The overlay's name in the key.
    public let identifier: String
    public let x: Position
    public let y: Position
    /// 0 (as it is) to 100 (invisible): the overlay's alpha is lowered by this share of 255.
    public let transparency: Int
    /// The largest share of the frame's width and height the overlay may take, in percent (nil: no limit); the
    /// overlay keeps its aspect ratio.
    public let maximumWidthPercent: Int?
    public let maximumHeightPercent: Int?
    /// The overlay's first frame, straight RGBA8, its alpha already lowered.
    private let pixels: PixelBuffer

    /// Throws `.invalidArgument` unless `transparency` is in 0...100, the percentages in 1...100 and the pixel
    /// and percentage offsets 0 or more.
    public init(
        _ overlay: Image, identifier: String, x: Position, y: Position, transparency: Int = 0,
        maximumWidthPercent: Int? = nil, maximumHeightPercent: Int? = nil
    ) throws(ImageError) {
        try ArgumentCheck.within(transparency, 0...100, "overlay transparency")
        for share in [maximumWidthPercent, maximumHeightPercent].compactMap({ $0 }) {
            try ArgumentCheck.within(share, 1...100, "overlay size percentage")
        }
        for position in [x, y] {
            switch position {
            case .pixels(let value, _), .percent(let value, _):
                try ArgumentCheck.within(value, 0...Int.max, "overlay offset")
            case .center, .tiled: break
            }
        }
        self.identifier = identifier
        self.x = x
        self.y = y
        self.transparency = transparency
        self.maximumWidthPercent = maximumWidthPercent
        self.maximumHeightPercent = maximumHeightPercent
        var bytes = try overlay.frame(at: 0).pixels.converted(to: .rgba8).packedBytes()
        let lowering = -(255 * transparency / 100)
        for index in stride(from: 3, to: bytes.count, by: 4) {
            if index & 0xF_FFFF == 3 { try WorkerPool.checkCancellation() }
            bytes[index] = UInt8(min(max(Int(bytes[index]) + lowering, 0), 255))
        }
        pixels = try PixelBuffer(width: overlay.width, height: overlay.height, format: .rgba8, bytes: bytes)
    }

    public var key: String {
        TransformerKey.make(
            "Overlay",
            [
                identifier, x.description, y.description, String(transparency),
                maximumWidthPercent.map(String.init) ?? "none",
                maximumHeightPercent.map(String.init) ?? "none",
            ])
    }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        let sized = try fitted(to: image.size, pixelLimit: (image.decodeOptions ?? DecodeOptions()).pixelLimit)
        let source = sized.packedBytes()
        let offsets = Self.offsets(image: image.size, overlay: sized.size, x: x, y: y)
        return try image.transformingFrames(outputSize: image.size) { (frame) throws(ImageError) -> PixelBuffer in
            var target = try frame.converted(to: .rgba8).packedBytes()
            try source.withUnsafeBufferPointer { (source) throws(ImageError) in
                try target.withUnsafeMutableBufferPointer { (target) throws(ImageError) in
                    for (left, top) in offsets {
                        try Compositor.merge(
                            source, size: sized.size, into: target, size: frame.size, at: left, top,
                            blending: .composite)
                    }
                }
            }
            return try PixelBuffer(width: frame.width, height: frame.height, format: .rgba8, bytes: target)
        }
    }

    /// The overlay at the size its percentages give over a frame of `size` (thumbor's `calc_watermark_size`: the
    /// largest size within both limits that keeps the aspect ratio, rounded half to even as Python's `round`);
    /// `.pixelLimitExceeded` when that size passes `pixelLimit`.
    public func fitted(to size: PixelSize, pixelLimit: Int) throws(ImageError) -> PixelBuffer {
        guard maximumWidthPercent != nil || maximumHeightPercent != nil else { return pixels }
        let overlayWidth = Double(pixels.width)
        let overlayHeight = Double(pixels.height)
        var maxWidth = maximumWidthPercent.map { Double(size.width) * Double($0) / 100 }
        var maxHeight = maximumHeightPercent.map { Double(size.height) * Double($0) / 100 }
        if maxWidth == nil, let maxHeight { maxWidth = overlayWidth * maxHeight / overlayHeight }
        if maxHeight == nil, let maxWidth { maxHeight = overlayHeight * maxWidth / overlayWidth }
        guard let maxWidth, let maxHeight else { return pixels }
        let width: Double
        let height: Double
        if overlayWidth / maxWidth >= overlayHeight / maxHeight {
            (width, height) = (
                maxWidth.rounded(.toNearestOrEven),
                (overlayHeight * maxWidth / overlayWidth).rounded(.toNearestOrEven)
            )
        } else {
            (width, height) = (
                (overlayWidth * maxHeight / overlayHeight).rounded(.toNearestOrEven),
                maxHeight.rounded(.toNearestOrEven)
            )
        }
        guard width * height <= Double(pixelLimit) else {
            throw ImageError(
                .pixelLimitExceeded,
                "the overlay would be \(Int(width))x\(Int(height)), over the pixel limit of \(pixelLimit) pixels")
        }
        let target = PixelSize(width: max(1, Int(width)), height: max(1, Int(height)))
        guard target != pixels.size else { return pixels }
        let output = try ResizeTransformer(width: target.width, height: target.height).transform(Image(pixels: pixels))
        return try output.pixels.converted(to: .rgba8)
    }

    /// Where the overlay's top left corner goes over a frame of `image`, one entry per copy, columns first
    /// (thumbor's order). Tiled both ways past 100 copies, at most 6 x 6 are drawn, as thumbor does.
    public static func offsets(image: PixelSize, overlay: PixelSize, x: Position, y: Position) -> [(x: Int, y: Int)] {
        var across = tiles(length: image.width, overlay: overlay.width, x)
        var down = tiles(length: image.height, overlay: overlay.height, y)
        if case .tiled = x, case .tiled = y, across.count * down.count > 100 {
            let columns = min(6, across.count)
            let rows = min(6, down.count)
            across = (columns, image.width - columns * overlay.width)
            down = (rows, image.height - rows * overlay.height)
        }
        let xs = starts(across, x, length: image.width, overlay: overlay.width)
        let ys = starts(down, y, length: image.height, overlay: overlay.height)
        return xs.flatMap { left in ys.map { top in (left, top) } }
    }

    /// For a tiled axis: how many copies and the room left to spread between them (Python's `divmod`, or
    /// thumbor's `(ceil(length / overlay), 10)` when fewer than two fit). For other axes: one copy.
    private static func tiles(length: Int, overlay: Int, _ position: Position) -> (count: Int, spare: Int) {
        guard case .tiled = position else { return (1, 0) }
        let fits = Double(length) / Double(overlay)
        if fits < 2 { return (Int(fits.rounded(.up)), 10) }
        return (length / overlay, length % overlay)
    }

    private static func starts(
        _ tiles: (count: Int, spare: Int), _ position: Position, length: Int,
        overlay: Int
    ) -> [Int] {
        switch position {
        case .tiled:
            let space = floorDivision(tiles.spare, max(tiles.count, 2) - 1)
            return (0..<tiles.count).map { $0 * space + $0 * overlay }
        case .center:
            return [(length - overlay) / 2]  // Python's int() of the half: toward zero, as Swift's division
        case .pixels(let value, let fromEnd):
            return [fromEnd ? length - overlay - value : value]
        case .percent(let value, let fromEnd):
            // thumbor: round(length * N / 100 + 1e-5), Python's round (half to even).
            let pixels = Int((Double(length) * Double(value) / 100 + 1e-5).rounded(.toNearestOrEven))
            return [fromEnd ? length - overlay - pixels : pixels]
        }
    }

    private static func floorDivision(_ a: Int, _ b: Int) -> Int {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }
}

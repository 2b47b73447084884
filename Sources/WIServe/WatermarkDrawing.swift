import WICore
import WITransform

/// Draws a `ThumborWatermark` over every frame as thumbor does: the watermark's alpha lowered by its transparency,
/// then resized to the ratios (if any), placed by thumbor's rules (offsets, percentages, centre, tiles) and merged
/// with thumbor's `_composite` arithmetic (both alphas taken into account, double precision, truncated). Without
/// ratios the result is thumbor's byte for byte (Tests/Fixtures/serve-watermark); a resized watermark is WITransform's
/// area average where thumbor uses Pillow's Lanczos filter.
///
/// Thread safety: an immutable value; safe from any thread.
struct WatermarkDrawing: Sendable {
    let mark: ThumborWatermark
    /// The watermark's first frame, straight RGBA8, its alpha already lowered.
    let pixels: PixelBuffer
    /// The most pixels a resized watermark may have (the server's `--max-pixels`).
    let pixelLimit: Int

    init(_ mark: ThumborWatermark, image: Image, pixelLimit: Int) throws(ImageError) {
        self.mark = mark
        self.pixelLimit = pixelLimit
        var bytes = try image.frame(at: 0).pixels.converted(to: .rgba8).packedBytes()
        let lowering = -(255 * mark.transparency / 100)
        for index in stride(from: 3, to: bytes.count, by: 4) {
            bytes[index] = UInt8(min(max(Int(bytes[index]) + lowering, 0), 255))
        }
        pixels = try PixelBuffer(width: image.width, height: image.height, format: .rgba8, bytes: bytes)
    }

    /// `image` with the watermark drawn over each frame.
    func apply(to image: Image) throws(ImageError) -> Image {
        let sized = try resized(for: image.size)
        let source = sized.packedBytes()
        let offsets = Self.offsets(image: image.size, mark: sized.size, x: mark.x, y: mark.y)
        return try image.mappingFrames { (frame) throws(ImageError) in
            var target = try frame.converted(to: .rgba8).packedBytes()
            for (x, y) in offsets {
                ThumborComposite.merge(source, size: sized.size, into: &target, size: frame.size, at: x, y)
            }
            return try PixelBuffer(width: frame.width, height: frame.height, format: .rgba8, bytes: target)
        }
    }

    /// The watermark at the size its ratios give for an image of `size` (thumbor's `calc_watermark_size`: the
    /// largest size within both limits that keeps its aspect ratio, rounded half to even as Python's `round`).
    func resized(for size: PixelSize) throws(ImageError) -> PixelBuffer {
        guard mark.widthRatio != nil || mark.heightRatio != nil else { return pixels }
        let markWidth = Double(pixels.width), markHeight = Double(pixels.height)
        var maxWidth = mark.widthRatio.map { Double(size.width) * Double($0) / 100 }
        var maxHeight = mark.heightRatio.map { Double(size.height) * Double($0) / 100 }
        if maxWidth == nil, let maxHeight { maxWidth = markWidth * maxHeight / markHeight }
        if maxHeight == nil, let maxWidth { maxHeight = markHeight * maxWidth / markWidth }
        guard let maxWidth, let maxHeight else { return pixels }
        let width: Double, height: Double
        if markWidth / maxWidth >= markHeight / maxHeight {
            (width, height) = (maxWidth.rounded(.toNearestOrEven), (markHeight * maxWidth / markWidth).rounded(.toNearestOrEven))
        } else {
            (width, height) = ((markWidth * maxHeight / markHeight).rounded(.toNearestOrEven), maxHeight.rounded(.toNearestOrEven))
        }
        guard width * height <= Double(pixelLimit) else {
            throw ImageError(.pixelLimitExceeded, "the watermark would be \(Int(width))x\(Int(height)), over the pixel limit of \(pixelLimit) pixels")
        }
        let target = PixelSize(width: max(1, Int(width)), height: max(1, Int(height)))
        guard target != pixels.size else { return pixels }
        let output = try ResizeTransformer(width: target.width, height: target.height).transform(Image(pixels: pixels))
        return try output.pixels.converted(to: .rgba8)
    }

    /// Where the watermark's top left corner goes, one entry per copy (thumbor's `on_image_ready`).
    static func offsets(image: PixelSize, mark: PixelSize, x: ThumborWatermark.Position, y: ThumborWatermark.Position)
        -> [(Int, Int)]
    {
        var across = tiles(length: image.width, mark: mark.width, x)
        var down = tiles(length: image.height, mark: mark.height, y)
        if case .tiled = x, case .tiled = y, across.count * down.count > 100 {
            // thumbor draws at most 6 x 6 when tiling both ways would take more than 100 copies.
            let columns = min(6, across.count), rows = min(6, down.count)
            across = (columns, image.width - columns * mark.width)
            down = (rows, image.height - rows * mark.height)
        }
        let xs = starts(across, x, length: image.width, mark: mark.width)
        let ys = starts(down, y, length: image.height, mark: mark.height)
        return xs.flatMap { left in ys.map { top in (left, top) } }   // thumbor's order: columns, then rows
    }

    /// For a tiled axis: how many copies and the room left to spread between them (Python's `divmod`, or
    /// thumbor's `(ceil(length / mark), 10)` when fewer than two fit). For other axes: one copy.
    private static func tiles(length: Int, mark: Int, _ position: ThumborWatermark.Position) -> (count: Int, spare: Int) {
        guard case .tiled = position else { return (1, 0) }
        let fits = Double(length) / Double(mark)
        if fits < 2 { return (Int(fits.rounded(.up)), 10) }
        return (length / mark, length % mark)
    }

    private static func starts(_ tiles: (count: Int, spare: Int), _ position: ThumborWatermark.Position, length: Int,
                               mark: Int) -> [Int] {
        switch position {
        case .tiled:
            let space = floorDivision(tiles.spare, max(tiles.count, 2) - 1)
            return (0..<tiles.count).map { $0 * space + $0 * mark }
        case .center:
            return [(length - mark) / 2]   // Python's int() of the half: toward zero, as Swift's division
        case .pixels(let value, let fromEnd):
            return [fromEnd ? length - mark - value : value]
        case .percent(let value, let fromEnd):
            // thumbor: round(length * N / 100 + 1e-5), Python's round (half to even).
            let pixels = Int((Double(length) * Double(value) / 100 + 1e-5).rounded(.toNearestOrEven))
            return [fromEnd ? length - mark - pixels : pixels]
        }
    }

    private static func floorDivision(_ a: Int, _ b: Int) -> Int {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }
}

import WICore

/// Fills the outside of four elliptical corners with a colour, or makes it transparent: thumbor 7.8's
/// `round_corner(a|b,r,g,b[,transparent])` byte for byte, its arithmetic and its quirks included.
///
/// The radii are clamped to half the frame's width and height. Row by row of the corner's height, the pixels left
/// of the ellipse take the colour (the right corners one column fewer than the left, as thumbor paints them), then
/// the edge is shaded column- and row-wise, each shade `color * (1 - aa) + fill * aa` in single precision and
/// truncated, with `aa` falling from 1 by 0.75 across the run, where thumbor's index arithmetic (in single precision,
/// wrapping past a row's end into the next row) says. Transparent: the filled pixels get alpha 0 and the shades
/// only darken (their alpha is kept). Alpha elsewhere is left alone. Frames are worked on as straight RGBA8 and come
/// back so. A zero radius changes nothing (thumbor's arithmetic divides by it). Key: `CornerFill(8,4,#ff0000ff,opaque)`.
///
/// For corners drawn with anti-aliased curves and a border instead, see `RoundCornerTransformer`.
///
/// ```swift
/// let rounded = try CornerFillTransformer(horizontalRadius: 12, verticalRadius: 12, color: .white).transform(photo)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct CornerFillTransformer: ImageTransformer, Hashable {
    /// The corners' horizontal and vertical radii in pixels.
    public let horizontalRadius: Int
    public let verticalRadius: Int
    /// The colour outside the corners (its alpha is not used).
    public let color: RGBAColor
    /// Whether the outside becomes transparent instead.
    public let transparent: Bool

    /// Throws `.invalidArgument` unless both radii are in 0...`ImageCoding.Geometry.maximumSide`.
    public init(horizontalRadius: Int, verticalRadius: Int, color: RGBAColor, transparent: Bool = false)
        throws(ImageError)
    {
        try ArgumentCheck.within(horizontalRadius, 0...ImageCoding.Geometry.maximumSide, "horizontal corner radius")
        try ArgumentCheck.within(verticalRadius, 0...ImageCoding.Geometry.maximumSide, "vertical corner radius")
        self.horizontalRadius = horizontalRadius
        self.verticalRadius = verticalRadius
        self.color = color
        self.transparent = transparent
    }

    public var key: String {
        TransformerKey.make(
            "CornerFill",
            ["\(horizontalRadius)", "\(verticalRadius)", color.hexString, transparent ? "transparent" : "opaque"])
    }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        try image.transformingFrames(outputSize: image.size) { (frame) throws(ImageError) -> PixelBuffer in
            try WorkerPool.checkCancellation()
            var pixels = try frame.converted(to: .rgba8)
            try pixels.makeUnique()
            let (width, height, bytesPerRow) = (pixels.width, pixels.height, pixels.bytesPerRow)
            try pixels.withUnsafeMutableBytes { (bytes) throws(ImageError) in
                var canvas = Canvas(bytes: bytes, width: width, height: height, bytesPerRow: bytesPerRow)
                try canvas.fill(self)
            }
            return pixels
        }
    }

    /// thumbor's buffer: pixels addressed by a flat index (row * width + column), so that a column one past a row's
    /// end is the next row's first pixel, as in thumbor's C; an index outside the buffer is passed over.
    private struct Canvas {
        let bytes: UnsafeMutableRawBufferPointer
        let width: Int, height: Int, bytesPerRow: Int

        private func offset(_ index: Int) -> Int? {
            guard index >= 0, index < width * height else { return nil }
            return index / width * bytesPerRow + index % width * 4
        }

        func read(_ index: Int) -> (Float, Float, Float)? {
            guard let at = offset(index) else { return nil }
            return (Float(bytes[at]), Float(bytes[at + 1]), Float(bytes[at + 2]))
        }

        func write(_ index: Int, _ red: UInt8, _ green: UInt8, _ blue: UInt8, clear: Bool) {
            guard let at = offset(index) else { return }
            (bytes[at], bytes[at + 1], bytes[at + 2]) = (red, green, blue)
            if clear { bytes[at + 3] = 0 }
        }

        /// A shade: `base` (read now, as thumbor reads through its pointer) times 1 - `aa`, plus the fill colour
        /// times `aa` unless transparent; truncated as C converts a float to an unsigned char.
        func shade(_ index: Int, from base: Int, _ aa: Float, _ fill: (Float, Float, Float), transparent: Bool) {
            guard let (r, g, b) = read(base) else { return }
            func mix(_ value: Float, _ fill: Float) -> UInt8 {
                let result = transparent ? value * (1 - aa) : value * (1 - aa) + fill * aa
                return UInt8(clamping: Int(result.rounded(.towardZero)))
            }
            guard let at = offset(index) else { return }
            (bytes[at], bytes[at + 1], bytes[at + 2]) = (mix(r, fill.0), mix(g, fill.1), mix(b, fill.2))
        }

        /// The corners filled; the pool job's cancellation is looked at every 16 rows and every 16 columns of them.
        mutating func fill(_ transformer: CornerFillTransformer) throws(ImageError) {
            let aRadius = min(transformer.horizontalRadius, width / 2)
            let bRadius = min(transformer.verticalRadius, height / 2)
            let a = Float(aRadius)
            let b = Float(bRadius)
            let color = transformer.color
            let fill = (Float(color.red), Float(color.green), Float(color.blue))
            let transparent = transformer.transparent
            let aaAmount: Float = 0.75
            let widthF = Float(width)
            let heightF = Float(height)
            // thumbor divides by each radius: with a zero one its values are NaN (undefined in C); nothing here.
            guard aRadius > 0, bRadius > 0 else { return }
            // Rows of the corner: the run left of the ellipse filled, then its edge shaded along the row.
            var y = 0
            while Float(y) <= b {
                if y & 15 == 0 { try WorkerPool.checkCancellation() }
                let x = Float(-(Double(a) * Double(b * b - Float(y * y)).squareRoot()) / Double(b))
                let yTop = Int(b - Float(y))
                let yBottom = Int((heightF - b) + Float(y) - 1)
                let endX = Int(x + a)
                var column = 0
                while column < endX {
                    write(yTop * width + column, color, clear: transparent)
                    write(yBottom * width + column, color, clear: transparent)
                    if column > 0 {
                        write(yTop * width + (width - column), color, clear: transparent)
                        write(yBottom * width + (width - column), color, clear: transparent)
                    }
                    column += 1
                }
                let bases = (
                    yTop * width + endX, yBottom * width + endX, yTop * width + (width - endX),
                    yBottom * width + (width - endX)
                )
                var count = 0
                var aaX = Int(x - 1)
                while Float(aaX) >= -a {
                    let aaY = Int(Float((Double(b) * Double(a * a - Float(aaX * aaX)).squareRoot()) / Double(a) + 1))
                    if aaY != y { break }
                    count += 1
                    aaX -= 1
                }
                aaX = Int(x - Float(count))
                if Float(aaX) < -a { aaX += 1 }
                var index = 1
                while Float(aaX) < x {
                    let adjusted = Int(Float(aaX) + a)
                    let aa = 1 - (Float(index) / Float(count)) * aaAmount
                    shade(yTop * width + adjusted, from: bases.0, aa, fill, transparent: transparent)
                    shade(yBottom * width + adjusted, from: bases.1, aa, fill, transparent: transparent)
                    shade(yTop * width + (width - adjusted), from: bases.2, aa, fill, transparent: transparent)
                    shade(yBottom * width + (width - adjusted), from: bases.3, aa, fill, transparent: transparent)
                    aaX += 1
                    index += 1
                }
                y += 1
            }
            // Columns of the corner: the edge shaded along the column where it is steep.
            var x: Float = 0
            while x >= -a {
                if Int(-x) & 15 == 0 { try WorkerPool.checkCancellation() }
                let yEdge = Float((Double(b) * Double(a * a - x * x).squareRoot()) / Double(a))
                var count = 0
                var aaY = Int(yEdge + 1)
                while Float(aaY) < b {
                    let aaX = Int(Float(-((Double(a) * Double(b * b - Float(aaY * aaY)).squareRoot()) / Double(b)) - 1))
                    if aaX != Int(x) { break }
                    count += 1
                    aaY += 1
                }
                let endX = Int(x + a)
                let yTop = Int(b - yEdge)
                let yBottom = Int((heightF - b) + yEdge - 1)
                let bases = (
                    yTop * width + endX, yBottom * width + endX, yTop * width + (width - endX),
                    yBottom * width + (width - endX)
                )
                let leftX = Int(x + a)
                let rightX = Int(widthF - a - x)
                var index = 1
                aaY = Int(yEdge + Float(count))
                if Float(aaY) > b { aaY -= 1 }
                while Float(aaY) > yEdge {
                    let top = Int((b - Float(aaY)) * widthF + Float(leftX))
                    let bottom = Int(((heightF - b) + Float(aaY) - 1) * widthF + Float(leftX))
                    let topRight = Int((b - Float(aaY)) * widthF + Float(rightX))
                    let bottomRight = Int(((heightF - b) + Float(aaY) - 1) * widthF + Float(rightX))
                    let aa = 1 - (Float(index) / Float(count)) * aaAmount
                    shade(top, from: bases.0, aa, fill, transparent: transparent)
                    shade(bottom, from: bases.1, aa, fill, transparent: transparent)
                    shade(topRight, from: bases.2, aa, fill, transparent: transparent)
                    shade(bottomRight, from: bases.3, aa, fill, transparent: transparent)
                    aaY -= 1
                    index += 1
                }
                x -= 1
            }
        }

        private func write(_ index: Int, _ color: RGBAColor, clear: Bool) {
            write(index, color.red, color.green, color.blue, clear: clear)
        }
    }
}

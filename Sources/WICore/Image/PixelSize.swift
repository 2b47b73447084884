/// A size in pixels.
///
/// Thread safety: a value type; safe to send and share.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `width * height`, saturating instead of trapping on overflow.
    public var area: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : product
    }

    public var description: String { "\(width)x\(height)" }
}

/// A rectangle of pixels: its top left corner and its size (a crop, a trim's box, a source window).
///
/// Thread safety: a value type; safe to send and share.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle at (0, 0) of `size`.
    public init(size: PixelSize) {
        self.init(x: 0, y: 0, width: size.width, height: size.height)
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// `WxH+X+Y`, as ImageMagick writes a geometry.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

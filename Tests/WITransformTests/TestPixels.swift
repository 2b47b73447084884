import WICore

/// Small images drawn pixel by pixel for the transformer tests.
enum TestPixels {
    static let red = RGBAColor(red: 255, green: 0, blue: 0)
    static let green = RGBAColor(red: 0, green: 255, blue: 0)
    static let blue = RGBAColor(red: 0, green: 0, blue: 255)

    /// A straight-alpha RGBA8 buffer whose pixel (x, y) is `color(x, y)`.
    static func buffer(
        width: Int, height: Int, format: PixelFormat = .rgba8,
        _ color: (Int, Int) -> RGBAColor
    ) throws -> PixelBuffer {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let c = color(x, y)
                bytes += [c.red, c.green, c.blue, c.alpha]
            }
        }
        return try PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes).converted(to: format)
    }

    static func image(width: Int, height: Int, _ color: (Int, Int) -> RGBAColor) throws -> Image {
        Image(pixels: try buffer(width: width, height: height, color))
    }

    /// Red in the top quarter, blue below: an image that shows at once if something turns it upside down.
    static func topMarked(width: Int = 40, height: Int = 40) throws -> Image {
        try image(width: width, height: height) { _, y in y < height / 4 ? red : blue }
    }

    /// One component of every pixel in row `y`.
    static func row(_ buffer: PixelBuffer, _ y: Int, _ component: KeyPath<RGBAColor, UInt8>) -> [Int] {
        (0..<buffer.width).map { Int(buffer.color(x: $0, y: y)[keyPath: component]) }
    }
}

import WICore

/// The images the service tests serve from their origin (WIServeTests, WIVaporTests, the examples' test): made
/// in code, so that a test can check a thumbnail's pixels against the colours it was made of.
///
/// Thread safety: static values and functions; safe from any thread.
public enum ServeTestImages {
    public static let red = RGBAColor(red: 255, green: 0, blue: 0)
    public static let green = RGBAColor(red: 0, green: 255, blue: 0)
    public static let blue = RGBAColor(red: 0, green: 0, blue: 255)

    /// 400x200: columns 0..<100 red, 100..<300 green, 300..<400 blue, opaque.
    public static func stripes() throws -> Image {
        var bytes = [UInt8]()
        bytes.reserveCapacity(400 * 200 * 4)
        for _ in 0..<200 {
            for x in 0..<400 {
                let color = x < 100 ? red : x < 300 ? green : blue
                bytes += [color.red, color.green, color.blue, 255]
            }
        }
        return Image(pixels: try PixelBuffer(width: 400, height: 200, format: .rgba8, bytes: bytes), format: .png)
    }

    /// A `width` x `height` image of one opaque colour.
    public static func solid(width: Int, height: Int, _ color: RGBAColor) throws -> Image {
        var bytes = [UInt8]()
        bytes.reserveCapacity(width * height * 4)
        for _ in 0..<(width * height) { bytes += [color.red, color.green, color.blue, 255] }
        return Image(pixels: try PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes), format: .png)
    }
}

extension RGBAColor {
    /// Whether each channel is within `tolerance` of `other`'s (lossy formats).
    public func isClose(to other: RGBAColor, tolerance: Int = 24) -> Bool {
        abs(Int(red) - Int(other.red)) <= tolerance && abs(Int(green) - Int(other.green)) <= tolerance
            && abs(Int(blue) - Int(other.blue)) <= tolerance && abs(Int(alpha) - Int(other.alpha)) <= tolerance
    }
}

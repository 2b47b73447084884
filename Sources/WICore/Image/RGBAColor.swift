/// A straight-alpha 8-bit colour, parsed from `#RRGGBB` or `#RRGGBBAA`.
///
/// ```swift
/// let red = RGBAColor(hex: "#ff0000")!          // opaque red
/// let glass = RGBAColor(hex: "#FFFFFF80")!      // white at 50% alpha
/// ```
///
/// Thread safety: a value type; safe to send and share.
public struct RGBAColor: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (the `#` optional, hex digits in either case); nil for anything else.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
              var value = UInt32(digits, radix: 16) else { return nil }
        if digits.count == 6 { value = value << 8 | 0xFF }
        self.init(red: UInt8(value >> 24), green: UInt8(value >> 16 & 0xFF), blue: UInt8(value >> 8 & 0xFF),
                  alpha: UInt8(value & 0xFF))
    }

    public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    public static let white = RGBAColor(red: 255, green: 255, blue: 255)

    /// `#RRGGBBAA` in lowercase.
    public var hexString: String {
        func two(_ v: UInt8) -> String { v < 16 ? "0" + String(v, radix: 16) : String(v, radix: 16) }
        return "#" + two(red) + two(green) + two(blue) + two(alpha)
    }

    public var description: String { hexString }
}

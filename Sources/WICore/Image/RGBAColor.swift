/// A straight-alpha 8-bit colour, parsed from a name or hex digits (`#RRGGBB`, `#RRGGBBAA`, `#RGB`).
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

    /// Parses `#RRGGBB`, `#RRGGBBAA` or `#RGB` (the `#` optional, hex digits in either case); nil for anything else.
    public init?(hex: String) {
        self.init(parsing: hex, names: false)
    }

    /// Parses a colour as CSS and thumbor write it: a name (`white`, `black`, `red`, `green`, `blue`, `yellow`,
    /// `gray`, `grey`, `transparent`; any case), or hex digits `RGB`, `RRGGBB` or, with `alpha`, `RRGGBBAA`, the
    /// `#` optional. Nil for anything else.
    public init?(parsing text: String, alpha: Bool = true) {
        self.init(parsing: text, names: true, alpha: alpha)
    }

    private init?(parsing text: String, names: Bool, alpha: Bool = true) {
        let lower = text.lowercased()
        if names, let named = Self.names[lower] {
            self = named
            return
        }
        let digits = lower.hasPrefix("#") ? Substring(lower.dropFirst()) : Substring(lower)
        guard digits.count == 3 || digits.count == 6 || alpha && digits.count == 8, digits.allSatisfy(\.isHexDigit)
        else { return nil }
        let full = digits.count == 3 ? digits.map { "\($0)\($0)" }.joined() : String(digits)
        guard var value = UInt32(full, radix: 16) else { return nil }
        if full.count == 6 { value = value << 8 | 0xFF }
        self.init(
            red: UInt8(value >> 24), green: UInt8(value >> 16 & 0xFF), blue: UInt8(value >> 8 & 0xFF),
            alpha: UInt8(value & 0xFF))
    }

    /// The names `init(parsing:)` knows.
    private static let names: [String: RGBAColor] = [
        "white": .white, "black": .black, "red": RGBAColor(red: 255, green: 0, blue: 0),
        "green": RGBAColor(red: 0, green: 128, blue: 0), "blue": RGBAColor(red: 0, green: 0, blue: 255),
        "yellow": RGBAColor(red: 255, green: 255, blue: 0), "gray": RGBAColor(red: 128, green: 128, blue: 128),
        "grey": RGBAColor(red: 128, green: 128, blue: 128), "transparent": .clear,
    ]

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

/// Rounding rules shared by every pixel conversion, so that each path gives the same numbers.
package enum PixelMath {
    /// 16-bit component to 8-bit, rounded: round(v * 255 / 65535).
    @inline(__always) package static func to8(_ value: Int) -> Int { (value * 255 + 32767) / 65535 }
    /// 8-bit component to 16-bit, exact: v * 257.
    @inline(__always) package static func to16(_ value: Int) -> Int { value * 257 }
    /// Premultiplies a component, rounded: round(c * a / maximum).
    @inline(__always) package static func premultiply(_ value: Int, alpha: Int, maximum: Int) -> Int {
        (value * alpha + maximum / 2) / maximum
    }
    /// Undoes premultiplication, rounded and clamped; colour under zero alpha is 0.
    @inline(__always) package static func unpremultiply(_ value: Int, alpha: Int, maximum: Int) -> Int {
        alpha == 0 ? 0 : Swift.min(maximum, (value * maximum + alpha / 2) / alpha)
    }
}

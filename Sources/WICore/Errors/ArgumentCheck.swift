/// The checks every public initializer and `validate()` uses on caller values, so that each rejection is an
/// `.invalidArgument` error with the same one-line message shape: `<name> must be <rule>, got <value>`.
package enum ArgumentCheck {
    /// A size side: 1 through `ImageCoding.Geometry.maximumSide`.
    package static func side(_ value: Int, _ name: String) throws(ImageError) {
        try within(value, 1...ImageCoding.Geometry.maximumSide, name)
    }

    /// An integer inside `range`.
    package static func within(_ value: Int, _ range: ClosedRange<Int>, _ name: String) throws(ImageError) {
        guard range.contains(value) else {
            throw invalid(name, "be in \(range.lowerBound)...\(range.upperBound)", String(value))
        }
    }

    /// A finite number inside `range` (NaN and infinities are refused whatever the range).
    package static func within(_ value: Double, _ range: ClosedRange<Double>, _ name: String) throws(ImageError) {
        guard value.isFinite, range.contains(value) else {
            throw invalid(
                name, "be a finite number in \(number(range.lowerBound))...\(number(range.upperBound))",
                String(value))
        }
    }

    /// A finite number, zero or more.
    package static func nonNegative(_ value: Double, _ name: String) throws(ImageError) {
        guard value.isFinite, value >= 0 else { throw invalid(name, "be a finite number >= 0", String(value)) }
    }

    /// A finite number (any sign).
    package static func finite(_ value: Double, _ name: String) throws(ImageError) {
        guard value.isFinite else { throw invalid(name, "be a finite number", String(value)) }
    }

    /// `.invalidArgument` with the message `<name> must <rule>, got <value>`.
    package static func invalid(_ name: String, _ rule: String, _ value: String) -> ImageError {
        ImageError(.invalidArgument, "\(name) must \(rule), got \(value)")
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

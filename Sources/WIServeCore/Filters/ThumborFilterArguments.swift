import WICore

/// A filter's arguments as the URL gives them (split at the commas outside brackets and parentheses, leading
/// spaces dropped), with the checks every filter uses; each failure is a one-line 400 naming the filter and the
/// argument.
///
/// Thread safety: a value type; safe to send and share.
struct ThumborFilterArguments: Sendable {
    /// The filter's name as written.
    let name: String
    /// The arguments as written (none for `name()`).
    let values: [String]
    /// `--strict`: every value outside the filter's range is a 400. Otherwise (thumbor's behaviour) a value that
    /// thumbor clamps is clamped where a check says `clampedWhenLenient`, and any other failure makes the list
    /// skip the filter.
    let strict: Bool

    var count: Int { values.count }

    subscript(index: Int) -> String { values[index] }

    /// A 400 naming the filter, with `reason` after its name.
    func failure(_ reason: String) -> ServeError { ServeError(.badRequest, "\(name)() \(reason)") }

    /// Refuses a number of arguments outside `allowed`.
    func count(_ allowed: ClosedRange<Int>) throws(ServeError) {
        guard allowed.contains(values.count) else {
            let expected =
                allowed.lowerBound == allowed.upperBound
                ? "\(allowed.lowerBound)"
                : "\(allowed.lowerBound) to \(allowed.upperBound)"
            throw failure("takes \(expected) argument(s), got \(values.count)")
        }
    }

    /// Argument `index` as an integer in `range`; out of it, clamped into it when lenient and `clampedWhenLenient`.
    /// Lenient, a leading `+` is refused, as thumbor's patterns refuse it.
    func integer(_ index: Int, _ range: ClosedRange<Int>, clampedWhenLenient: Bool = false) throws(ServeError) -> Int {
        guard strict || !values[index].hasPrefix("+"), let value = Int(values[index]) else {
            throw outside(index, range)
        }
        if range.contains(value) { return value }
        guard !strict, clampedWhenLenient else { throw outside(index, range) }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    private func outside(_ index: Int, _ range: ClosedRange<Int>) -> ServeError {
        failure("argument \(index + 1) must be an integer in \(range), got '\(values[index])'")
    }

    /// Argument `index` as a finite number in `range`; out of it, clamped into it when lenient and
    /// `clampedWhenLenient`. Lenient, only thumbor's DecimalNumber is a number (`-`, digits, one `.`: no
    /// exponent, no `+`, no `inf`).
    func real(_ index: Int, _ range: ClosedRange<Double>, clampedWhenLenient: Bool = false) throws(ServeError) -> Double
    {
        guard strict || Self.isDecimal(values[index]), let value = Double(values[index]), value.isFinite,
            range.contains(value) || (!strict && clampedWhenLenient)
        else { throw failure("argument \(index + 1) must be a number in \(range), got '\(values[index])'") }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// thumbor's DecimalNumber: an optional `-`, digits with at most one `.`, at least one digit.
    private static func isDecimal(_ text: String) -> Bool {
        let body = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        return body.contains { $0.isASCII && $0.isNumber } && body.filter { $0 == "." }.count <= 1
            && body.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == "." }
    }

    /// Whether argument `index` is digits alone: thumbor's PositiveNumber pattern, the only values a filter that
    /// takes it clamps (a minus makes thumbor skip the filter).
    func isUnsigned(_ index: Int) -> Bool {
        !values[index].isEmpty && values[index].utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Argument `index` as thumbor's boolean: `true`, `True` or `1`; `false`, `False` or `0`.
    func boolean(_ index: Int) throws(ServeError) -> Bool {
        switch values[index] {
        case "true", "True", "1": return true
        case "false", "False", "0": return false
        default: throw failure("argument \(index + 1) must be true or false, got '\(values[index])'")
        }
    }

    /// Argument `index` as a colour by name, `RRGGBB` or `RGB` (with or without `#`), as thumbor takes them.
    func color(_ index: Int) throws(ServeError) -> RGBAColor {
        guard let color = RGBAColor(parsing: values[index], alpha: false) else {
            throw failure("takes a colour name, RRGGBB, RGB or transparent, got '\(values[index])'")
        }
        return color
    }
}

/// Python's arithmetic on the literals of a configuration file (`MAX_AGE = 24 * 60 * 60`, thumbor's own style):
/// `+ - * / // % **` on ints and floats with Python's results (`/` is a float, `//` and `%` floor), `+` on strings.
enum ThumborConfigArithmetic {
    typealias Problem = ThumborConfigError.Problem

    static func apply(
        _ operation: String, _ left: ThumborConfigValue, _ right: ThumborConfigValue,
        line: Int
    ) throws(Problem) -> ThumborConfigValue {
        if case .string(let a) = left, case .string(let b) = right, operation == "+" { return .string(a + b) }
        guard let a = number(left), let b = number(right) else {
            throw Problem(
                line: line,
                "\(left.typeName) \(operation) \(right.typeName) is not read: only numbers are "
                    + "combined, and strings joined with +")
        }
        switch (a, b) {
        case (.int(let x), .int(let y)):
            return try integer(operation, x, y, line: line)
        default:
            return try real(operation, double(a), double(b), line: line)
        }
    }

    /// Numbers, with bools as Python counts them (True is 1).
    private static func number(_ value: ThumborConfigValue) -> ThumborConfigValue? {
        switch value {
        case .int, .float: value
        case .bool(let flag): .int(flag ? 1 : 0)
        default: nil
        }
    }

    private static func double(_ value: ThumborConfigValue) -> Double {
        switch value {
        case .int(let x): Double(x)
        case .float(let x): x
        default: 0
        }
    }

    private static func integer(_ operation: String, _ x: Int, _ y: Int, line: Int) throws(Problem)
        -> ThumborConfigValue
    {
        let tooLarge = Problem(line: line, "the result is beyond 64 bits")
        let zero = Problem(line: line, "division by zero")
        switch operation {
        case "+":
            let (value, overflow) = x.addingReportingOverflow(y)
            guard !overflow else { throw tooLarge }
            return .int(value)
        case "-":
            let (value, overflow) = x.subtractingReportingOverflow(y)
            guard !overflow else { throw tooLarge }
            return .int(value)
        case "*":
            let (value, overflow) = x.multipliedReportingOverflow(by: y)
            guard !overflow else { throw tooLarge }
            return .int(value)
        case "/":
            guard y != 0 else { throw zero }
            return .float(Double(x) / Double(y))
        case "//", "%":
            guard y != 0 else { throw zero }
            guard !(x == .min && y == -1) else { throw tooLarge }
            var quotient = x / y
            var remainder = x % y
            // Python floors: the remainder takes the divisor's sign.
            if remainder != 0, (remainder < 0) != (y < 0) {
                quotient -= 1
                remainder += y
            }
            return .int(operation == "//" ? quotient : remainder)
        default:
            guard y >= 0 else { return .float(power(Double(x), Double(y))) }
            var result = 1
            for _ in 0..<min(y, 64) {
                let (value, overflow) = result.multipliedReportingOverflow(by: x)
                guard !overflow else { throw tooLarge }
                result = value
            }
            guard y <= 64 || x == 0 || x == 1 else { throw tooLarge }
            return .int(x == -1 && y > 64 ? (y % 2 == 0 ? 1 : -1) : result)
        }
    }

    private static func real(_ operation: String, _ x: Double, _ y: Double, line: Int) throws(Problem)
        -> ThumborConfigValue
    {
        let value: Double
        switch operation {
        case "+": value = x + y
        case "-": value = x - y
        case "*": value = x * y
        case "/":
            guard y != 0 else { throw Problem(line: line, "division by zero") }
            value = x / y
        case "//", "%":
            guard y != 0 else { throw Problem(line: line, "division by zero") }
            let quotient = (x / y).rounded(.down)
            value = operation == "//" ? quotient : x - y * quotient
        default:
            value = power(x, y)
        }
        guard value.isFinite else { throw Problem(line: line, "the result is not a finite number") }
        return .float(value)
    }

    /// `x` to the power `y` by repeated squaring (FoundationEssentials has no `pow`).
    private static func power(_ x: Double, _ y: Double) -> Double {
        if y == y.rounded(), abs(y) <= 1_024 {
            var result = 1.0
            var base = x
            var exponent = Int(abs(y))
            while exponent > 0 {
                if exponent & 1 == 1 { result *= base }
                base *= base
                exponent >>= 1
            }
            return y < 0 ? 1 / result : result
        }
        return .nan
    }
}

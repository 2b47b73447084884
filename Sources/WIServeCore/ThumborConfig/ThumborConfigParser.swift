/// Reads one statement of a thumbor configuration file: `NAME = VALUE`, where VALUE is a Python literal (numbers,
/// strings, True/False/None, lists, tuples, dicts), arithmetic on numbers and strings (`24 * 60 * 60`,
/// `'a' + 'b'`), or `re.compile(r'...')`; `import` and `from ... import` lines bind no setting and are passed over.
/// Anything else (a call, a name, a block) is refused with its line.
///
/// Thread safety: a value type used by one thread.
struct ThumborConfigParser {
    typealias Token = ThumborConfigLexer.Token
    typealias Problem = ThumborConfigError.Problem

    private let statement: ThumborConfigLexer.Statement
    private var position = 0

    /// What wi serve reads, said in each refusal of a value.
    static let literalsOnly =
        "wi serve reads literal values only (numbers, strings, True, False, None, lists, "
        + "tuples, dicts, arithmetic on them, re.compile(r'...'))"

    private init(_ statement: ThumborConfigLexer.Statement) {
        self.statement = statement
    }

    /// The assignment `statement` makes; nil for an import.
    static func assignment(_ statement: ThumborConfigLexer.Statement) throws(Problem) -> ThumborConfigFile.Assignment? {
        var parser = ThumborConfigParser(statement)
        return try parser.assignment()
    }

    private mutating func assignment() throws(Problem) -> ThumborConfigFile.Assignment? {
        let tokens = statement.tokens
        if case .name(let first) = tokens[0].token, first == "import" || first == "from" { return nil }
        guard !statement.indented else {
            throw Problem(
                line: statement.line,
                "an indented line (inside an if, for, def or with block) is not read: "
                    + "write each setting as NAME = value at the start of its line")
        }
        guard tokens.count >= 2, case .name(let name) = tokens[0].token, tokens[1].token == .symbol("="),
            !Self.keywords.contains(name)
        else {
            throw Problem(
                line: statement.line,
                "'\(Self.shortened(statement.text))' is not an assignment: "
                    + "a thumbor configuration sets NAME = value")
        }
        position = 2
        guard position < tokens.count else { throw Problem(line: statement.line, "\(name) = has no value") }
        let value = try expression()
        if position < tokens.count {
            throw refusal(at: tokens[position].line)
        }
        return ThumborConfigFile.Assignment(name: name, value: value, line: statement.line)
    }

    private static let keywords: Set<String> = [
        "if", "elif", "else", "for", "while", "def", "class", "with", "try", "except", "finally", "return", "del",
        "global", "nonlocal", "assert", "pass", "raise", "lambda", "async", "await", "True", "False", "None",
    ]

    private static func shortened(_ text: String) -> String {
        text.count > 60 ? String(text.prefix(57)) + "..." : text
    }

    /// The refusal of a value that is not a literal.
    private func refusal(at line: Int) -> Problem {
        Problem(line: line, "'\(Self.shortened(statement.text))' is not a literal: \(Self.literalsOnly)")
    }

    // MARK: Tokens

    private var next: Token? { position < statement.tokens.count ? statement.tokens[position].token : nil }
    private var line: Int { position < statement.tokens.count ? statement.tokens[position].line : statement.line }

    private mutating func take(_ symbol: String) -> Bool {
        guard next == .symbol(symbol) else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ symbol: String) throws(Problem) {
        guard take(symbol) else {
            if next == nil { throw Problem(line: line, "'\(symbol)' expected at the end of the value") }
            throw refusal(at: line)
        }
    }

    // MARK: Expressions (Python's precedence: + -, then * / // %, then unary - +, then **)

    private mutating func expression() throws(Problem) -> ThumborConfigValue {
        var value = try term()
        while let operation = next, operation == .symbol("+") || operation == .symbol("-") {
            let operatorLine = line
            position += 1
            let right = try term()
            value = try ThumborConfigArithmetic.apply(
                operation == .symbol("+") ? "+" : "-", value, right, line: operatorLine)
        }
        return value
    }

    private mutating func term() throws(Problem) -> ThumborConfigValue {
        var value = try unary()
        while case .symbol(let symbol) = next, ["*", "/", "//", "%"].contains(symbol) {
            let operatorLine = line
            position += 1
            let right = try unary()
            value = try ThumborConfigArithmetic.apply(symbol, value, right, line: operatorLine)
        }
        return value
    }

    private mutating func unary() throws(Problem) -> ThumborConfigValue {
        let operatorLine = line
        if case .symbol(let sign) = next, sign == "-" || sign == "+" {
            position += 1
            let operand = try unary()
            return try ThumborConfigArithmetic.apply(sign, .int(0), operand, line: operatorLine)
        }
        return try power()
    }

    private mutating func power() throws(Problem) -> ThumborConfigValue {
        let base = try atom()
        let operatorLine = line
        guard take("**") else { return base }
        let exponent = try unary()
        return try ThumborConfigArithmetic.apply("**", base, exponent, line: operatorLine)
    }

    private mutating func atom() throws(Problem) -> ThumborConfigValue {
        let atomLine = line
        guard let token = next else { throw Problem(line: atomLine, "a value is missing at the end of the line") }
        position += 1
        switch token {
        case .number(let text):
            return try Self.number(text, line: atomLine)
        case .string(let first, let isBytes):
            var text = first
            // Adjacent literals join, as in Python ('a' 'b' is 'ab'); str and bytes do not mix.
            while case .string(let more, let moreBytes) = next {
                guard moreBytes == isBytes else {
                    throw Problem(line: line, "a str and a bytes literal cannot be joined")
                }
                text += more
                position += 1
            }
            return .string(text)
        case .formattedString:
            throw Problem(line: atomLine, "f-strings are expressions: \(Self.literalsOnly)")
        case .name("True"): return .bool(true)
        case .name("False"): return .bool(false)
        case .name("None"): return .none
        case .name("re"):
            return try compiledPattern(line: atomLine)
        case .symbol("["):
            return .list(try items(closing: "]"))
        case .symbol("("):
            if take(")") { return .tuple([]) }
            let first = try expression()
            if take(")") { return first }
            try expect(",")
            if take(")") { return .tuple([first]) }
            let rest = try items(closing: ")")
            return .tuple([first] + rest)
        case .symbol("{"):
            return try dictionary()
        default:
            throw refusal(at: atomLine)
        }
    }

    /// Values separated by commas up to `closing` (a trailing comma allowed).
    private mutating func items(closing: String) throws(Problem) -> [ThumborConfigValue] {
        var values: [ThumborConfigValue] = []
        while !take(closing) {
            values.append(try expression())
            if take(closing) { break }
            try expect(",")
        }
        return values
    }

    private mutating func dictionary() throws(Problem) -> ThumborConfigValue {
        var entries: [ThumborConfigValue.Entry] = []
        while !take("}") {
            let key = try expression()
            guard take(":") else {
                throw Problem(line: line, "sets ({a, b}) are not read: \(Self.literalsOnly)")
            }
            let value = try expression()
            entries.append(.init(key: key, value: value))
            if take("}") { break }
            try expect(",")
        }
        return .dict(entries)
    }

    /// `re.compile(PATTERN)` after `re`: thumbor's way to give ALLOWED_SOURCES a regular expression.
    private mutating func compiledPattern(line atomLine: Int) throws(Problem) -> ThumborConfigValue {
        guard take("."), next == .name("compile") else { throw refusal(at: atomLine) }
        position += 1
        try expect("(")
        guard case .string(let pattern) = try expression() else {
            throw Problem(line: atomLine, "re.compile() takes the pattern as a string literal here")
        }
        _ = take(",")
        guard take(")") else {
            throw Problem(line: atomLine, "re.compile() with flags is not read: write the pattern alone")
        }
        return .pattern(pattern)
    }

    /// A number literal as Python reads it: `1_000`, `0x1F`, `0o17`, `0b101`, `2.5`, `.5`, `75e6`.
    static func number(_ text: String, line: Int) throws(Problem) -> ThumborConfigValue {
        let bad = Problem(line: line, "'\(text)' is not a number wi serve reads (malformed, or beyond 64 bits)")
        guard !text.hasPrefix("_"), !text.hasSuffix("_"), !text.contains("__") else { throw bad }
        let digits = text.filter { $0 != "_" }.lowercased()
        if digits.hasSuffix("j") { throw Problem(line: line, "complex numbers are not read: \(literalsOnly)") }
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.hasPrefix(prefix) {
            guard let value = Int(digits.dropFirst(2), radix: radix) else { throw bad }
            return .int(value)
        }
        if digits.contains(".") || digits.contains("e") {
            guard let value = Double(digits), value.isFinite else { throw bad }
            return .float(value)
        }
        guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { throw bad }
        // Python refuses leading zeros in a non-zero integer (010).
        guard !(digits.hasPrefix("0") && digits.contains { $0 != "0" }) else { throw bad }
        guard let value = Int(digits) else { throw bad }
        return .int(value)
    }
}

/// Cuts a thumbor configuration file (Python source) into statements of tokens, as Python's tokenizer does for the
/// part of the language configuration files use: comments, strings with every quoting and escape, numbers, names
/// and operators; a statement ends at a newline outside brackets, at `;`, and not after a `\` that ends a line.
///
/// Thread safety: a value type used by one thread.
struct ThumborConfigLexer {
    enum Token: Equatable {
        case name(String)
        /// The literal as written (`1_000`, `0x1F`, `75e6`); the parser reads it.
        case number(String)
        case string(String, isBytes: Bool)
        /// `f'...'`: an expression, refused by the parser.
        case formattedString
        case symbol(String)
    }

    struct Located: Equatable {
        var token: Token
        var line: Int
    }

    /// One logical line: its tokens, the line it starts on, whether it starts indented (inside a block) and its
    /// first physical line's text for messages.
    struct Statement {
        var tokens: [Located]
        var line: Int
        var indented: Bool
        var text: String
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private(set) var statements: [Statement] = []
    /// A problem that stops the reading (an unterminated string or bracket): what comes after it cannot be cut.
    private(set) var problem: ThumborConfigError.Problem?

    private var current: [Located] = []
    private var currentIndented = false
    private var openBrackets: [(Unicode.Scalar, Int)] = []
    /// Whether only spaces came before this point on its physical line, and whether there were any.
    private var onlySpacesSoFar = true
    private var sawIndent = false
    private var lineStarts: [Int] = [0]

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        run()
    }

    private mutating func run() {
        while index < scalars.count, problem == nil {
            let scalar = scalars[index]
            switch scalar {
            case " ", "\t", "\r", "\u{0C}":
                if onlySpacesSoFar, scalar != "\r" { sawIndent = true }
                index += 1
            case "\n":
                newLine()
                if openBrackets.isEmpty { endStatement() }
            case "#":
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            case "\\":
                var next = index + 1
                if next < scalars.count, scalars[next] == "\r" { next += 1 }
                guard next < scalars.count, scalars[next] == "\n" else {
                    append(.symbol("\\"))
                    index += 1
                    continue
                }
                index = next
                newLine()
            case ";" where openBrackets.isEmpty:
                index += 1
                endStatement()
            case "'", "\"":
                lexString(prefix: "")
            case _ where Self.isNameStart(scalar):
                let start = index
                while index < scalars.count, Self.isNameContinue(scalars[index]) { index += 1 }
                let name = String(String.UnicodeScalarView(scalars[start..<index]))
                if index < scalars.count, scalars[index] == "'" || scalars[index] == "\"",
                    ["r", "u", "b", "br", "rb", "f", "fr", "rf"].contains(name.lowercased())
                {
                    lexString(prefix: name.lowercased())
                } else {
                    append(.name(name))
                }
            case _
            where Self.isDigit(scalar)
                || (scalar == "." && index + 1 < scalars.count && Self.isDigit(scalars[index + 1])):
                lexNumber()
            default:
                lexSymbol(scalar)
            }
        }
        if problem == nil, let open = openBrackets.last {
            problem = .init(line: open.1, "'\(open.0)' is never closed")
        }
        // After a problem the statement under way is cut short: only the problem is reported for it.
        if problem == nil { endStatement() }
    }

    private mutating func newLine() {
        index += 1
        line += 1
        lineStarts.append(index)
        onlySpacesSoFar = true
        sawIndent = false
    }

    private mutating func append(_ token: Token) {
        if current.isEmpty { currentIndented = onlySpacesSoFar && sawIndent }
        onlySpacesSoFar = false
        current.append(Located(token: token, line: line))
    }

    private mutating func endStatement() {
        guard let first = current.first else { return }
        let start = lineStarts[first.line - 1]
        var end = start
        while end < scalars.count, scalars[end] != "\n" { end += 1 }
        while end > start, [" ", "\t", "\r"].contains(scalars[end - 1]) { end -= 1 }
        var from = start
        while from < end, [" ", "\t"].contains(scalars[from]) { from += 1 }
        let text = String(String.UnicodeScalarView(scalars[from..<end]))
        statements.append(Statement(tokens: current, line: first.line, indented: currentIndented, text: text))
        current = []
    }

    private mutating func lexSymbol(_ scalar: Unicode.Scalar) {
        index += 1
        switch scalar {
        case "(", "[", "{":
            openBrackets.append((scalar, line))
        case ")", "]", "}":
            if !openBrackets.isEmpty { openBrackets.removeLast() }
        case "*", "/":
            if index < scalars.count, scalars[index] == scalar {
                index += 1
                append(.symbol(String(scalar) + String(scalar)))
                return
            }
        default:
            break
        }
        append(.symbol(String(scalar)))
    }

    private mutating func lexNumber() {
        let start = index
        while index < scalars.count {
            let scalar = scalars[index]
            if Self.isNameContinue(scalar) || scalar == "." {
                index += 1
            } else if scalar == "+" || scalar == "-", scalars[index - 1] == "e" || scalars[index - 1] == "E",
                !Self.isRadixLiteral(scalars[start..<index])
            {
                index += 1
            } else {
                break
            }
        }
        append(.number(String(String.UnicodeScalarView(scalars[start..<index]))))
    }

    private static func isRadixLiteral(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        guard scalars.count >= 2, scalars.first == "0" else { return false }
        return ["x", "X", "o", "O", "b", "B"].contains(scalars[scalars.startIndex + 1])
    }

    /// A string from its opening quote at `index`, with Python's escapes unless `prefix` has `r`.
    private mutating func lexString(prefix: String) {
        let raw = prefix.contains("r")
        let quote = scalars[index]
        let startLine = line
        let triple = index + 2 < scalars.count && scalars[index + 1] == quote && scalars[index + 2] == quote
        index += triple ? 3 : 1
        var value = String.UnicodeScalarView()
        while true {
            guard index < scalars.count else {
                problem = .init(line: startLine, "a string that is never closed")
                return
            }
            let scalar = scalars[index]
            if scalar == quote {
                if !triple {
                    index += 1
                    break
                }
                if index + 2 < scalars.count, scalars[index + 1] == quote, scalars[index + 2] == quote {
                    index += 3
                    break
                }
                value.append(scalar)
                index += 1
            } else if scalar == "\n" {
                guard triple else {
                    problem = .init(line: startLine, "a string that is never closed on its line")
                    return
                }
                value.append(scalar)
                newLine()
            } else if scalar == "\\" {
                guard index + 1 < scalars.count else {
                    problem = .init(line: startLine, "a string that is never closed")
                    return
                }
                if raw {
                    value.append(scalar)
                    value.append(scalars[index + 1])
                    if scalars[index + 1] == "\n" {
                        line += 1
                        lineStarts.append(index + 2)
                    }
                    index += 2
                } else if let escaped = escape(isBytes: prefix.contains("b")) {
                    value.append(contentsOf: escaped)
                } else {
                    return
                }
            } else {
                value.append(scalar)
                index += 1
            }
        }
        if prefix.contains("f") {
            append(.formattedString)
        } else {
            append(.string(String(value), isBytes: prefix.contains("b")))
        }
    }

    /// The text of the escape at `index` (a backslash), as Python reads it: a backslash before a character that
    /// starts no escape stays. Nil after setting `problem`.
    private mutating func escape(isBytes: Bool) -> String.UnicodeScalarView? {
        let escapeLine = line
        index += 1
        let scalar = scalars[index]
        index += 1
        let simple: [Unicode.Scalar: Unicode.Scalar] = [
            "\\": "\\", "'": "'", "\"": "\"", "a": "\u{07}", "b": "\u{08}", "f": "\u{0C}", "n": "\n", "r": "\r",
            "t": "\t", "v": "\u{0B}",
        ]
        if let replacement = simple[scalar] { return String.UnicodeScalarView([replacement]) }
        switch scalar {
        case "\n":
            line += 1
            lineStarts.append(index)
            return String.UnicodeScalarView()
        case "0"..."7":
            var value = Int(scalar.value - 48)
            var count = 1
            while count < 3, index < scalars.count, ("0"..."7").contains(scalars[index]) {
                value = value * 8 + Int(scalars[index].value - 48)
                index += 1
                count += 1
            }
            return String.UnicodeScalarView([Unicode.Scalar(UInt32(value))!])
        case "x", "u", "U":
            // \u and \U are no escapes in a bytes literal: the backslash stays.
            guard scalar == "x" || !isBytes else { return String.UnicodeScalarView(["\\", scalar]) }
            let digits = scalar == "x" ? 2 : scalar == "u" ? 4 : 8
            guard index + digits <= scalars.count,
                let value = UInt32(String(String.UnicodeScalarView(scalars[index..<index + digits])), radix: 16),
                let decoded = Unicode.Scalar(value)
            else {
                problem = .init(line: escapeLine, "a bad \\\(scalar) escape in a string")
                return nil
            }
            index += digits
            return String.UnicodeScalarView([decoded])
        case "N" where !isBytes:
            problem = .init(line: escapeLine, "\\N{...} escapes (characters by name) are not read; write the character")
            return nil
        default:
            return String.UnicodeScalarView(["\\", scalar])
        }
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            || (scalar.value > 127 && scalar.properties.isXIDStart)
    }

    static func isNameContinue(_ scalar: Unicode.Scalar) -> Bool {
        isNameStart(scalar) || isDigit(scalar) || (scalar.value > 127 && scalar.properties.isXIDContinue)
    }
}

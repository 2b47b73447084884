/// A value of a thumbor configuration file: the Python literals thumbor.conf files hold, and `re.compile(...)`.
///
/// Thread safety: a value type; safe to send and share.
package indirect enum ThumborConfigValue: Equatable, Sendable {
    case none
    case bool(Bool)
    case int(Int)
    case float(Double)
    /// A `str` (and a `b'...'` literal, whose bytes thumbor's settings use as text).
    case string(String)
    case list([ThumborConfigValue])
    case tuple([ThumborConfigValue])
    case dict([Entry])
    /// `re.compile(PATTERN)`: the pattern's text.
    case pattern(String)

    /// One `key: value` of a dict, in the file's order.
    package struct Entry: Equatable, Sendable {
        package var key: ThumborConfigValue
        package var value: ThumborConfigValue

        package init(key: ThumborConfigValue, value: ThumborConfigValue) {
            self.key = key
            self.value = value
        }
    }

    /// Python's truth value (`if config.AUTO_WEBP:`): False, None, 0, 0.0 and empty strings and containers are
    /// false; everything else is true.
    package var isTrue: Bool {
        switch self {
        case .none: false
        case .bool(let value): value
        case .int(let value): value != 0
        case .float(let value): value != 0
        case .string(let value): !value.isEmpty
        case .list(let items), .tuple(let items): !items.isEmpty
        case .dict(let entries): !entries.isEmpty
        case .pattern: true
        }
    }

    /// The items of a list or a tuple; nil for anything else.
    package var items: [ThumborConfigValue]? {
        switch self {
        case .list(let items), .tuple(let items): items
        default: nil
        }
    }

    /// Python's name of the value's type, for messages (`SECURITY_KEY must be a str, got int`).
    package var typeName: String {
        switch self {
        case .none: "None"
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .string: "str"
        case .list: "list"
        case .tuple: "tuple"
        case .dict: "dict"
        case .pattern: "re.Pattern"
        }
    }
}

extension ThumborConfigValue: CustomStringConvertible {
    /// As Python's `repr` writes it, near enough for messages: `'text'`, `[1, 2.5, None]`, `re.compile('a.*')`.
    package var description: String {
        switch self {
        case .none: "None"
        case .bool(let value): value ? "True" : "False"
        case .int(let value): "\(value)"
        case .float(let value): "\(value)"
        case .string(let value): Self.quoted(value)
        case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .tuple(let items):
            items.count == 1 ? "(\(items[0]),)" : "(" + items.map(\.description).joined(separator: ", ") + ")"
        case .dict(let entries): "{" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .pattern(let text): "re.compile(\(Self.quoted(text)))"
        }
    }

    private static func quoted(_ text: String) -> String {
        var out = "'"
        for character in text {
            switch character {
            case "'": out += "\\'"
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.append(character)
            }
        }
        return out + "'"
    }
}

/// thumbor's ALLOWED_SOURCES entries as `--allow-source` patterns, converted only where the meaning is the same.
///
/// thumbor 7.8 (`thumbor/loaders/http_loader.py`, `validate`) reads an entry three ways:
/// - a plain string (no `\ ^ $ * + ? { } [ ] ( ) |`) is the source's host name, compared whole: here a host
///   pattern without `*`;
/// - a string with any of those is a regular expression for the whole host name (legacy, deprecated): here one
///   host pattern per alternative, `.*` becoming `*`;
/// - `re.compile(...)` is a regular expression matched at the start of the whole URL: here a URL prefix.
/// A regular expression converts when it is made of literal characters, `.*` (any run), `.+` before a `\.` (a host
/// label is never empty), groups and alternatives (`(a|b)`, `(...)?`, `x?`), `^` at its start and `$` at its end;
/// anything else (`[0-9]`, `\d`, a lone `.`, `+` or `*` on a character or group) has no equivalent and is refused
/// with the entry named.
enum ThumborAllowedSources {
    /// The `--allow-source` patterns of one entry, or why it has none.
    static func patterns(for entry: ThumborConfigValue) throws(Refusal) -> [String] {
        switch entry {
        case .string(let text) where !looksLikeRegex(text):
            guard !text.isEmpty, text.allSatisfy(isHostCharacter) else {
                throw Refusal(
                    "'\(text)' is compared with the source's host name whole, and no host name is "
                        + "written so: thumbor never matches it (write the host alone, e.g. 'images.example.com')")
            }
            return [text]
        case .string(let text):
            var parser = RegexGlob(text, entry: "'\(text)'")
            let globs = try parser.globs().map(collapsed)
            for glob in globs where glob.isEmpty || !glob.allSatisfy({ isHostCharacter($0) || $0 == "*" }) {
                throw Refusal("'\(text)' is matched against host names, and '\(glob)' is not a host name pattern")
            }
            return unique(globs)
        case .pattern(let text):
            let entry = "re.compile('\(text)')"
            var parser = RegexGlob(text, entry: entry)
            var prefixes: [String] = []
            for glob in try parser.globs() {
                var prefix = collapsed(glob)
                let open = prefix.hasSuffix("*")
                if open { prefix.removeLast() }
                guard let scheme = ["https://", "http://"].first(where: { prefix.hasPrefix($0) }) else {
                    throw Refusal(
                        "\(entry) is matched from the start of the source URL (http://... or https://...), "
                            + "so only a pattern that starts with one converts: '\(glob)' does not")
                }
                guard prefix.count > scheme.count else {
                    throw Refusal(
                        "\(entry) allows every \(scheme) source: leave ALLOWED_SOURCES empty to allow every source")
                }
                guard !prefix.contains("*") else {
                    throw Refusal(
                        "\(entry): a wildcard inside a URL ('\(glob)') has no equivalent; wi serve's URL "
                            + "patterns are prefixes (for every host of a domain write a host pattern: '.*\\.example\\.com')"
                    )
                }
                guard !parser.anchoredAtEnd || open else {
                    throw Refusal("\(entry) ends with $ (the whole URL); wi serve's URL patterns are prefixes")
                }
                prefixes.append(prefix)
            }
            return unique(prefixes)
        default:
            throw Refusal("an entry must be a string or re.compile(...), got \(entry.typeName) \(entry)")
        }
    }

    /// Why an entry has no equivalent.
    struct Refusal: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// thumbor's test for a legacy regular expression (`LEGACY_ALLOWED_SOURCE_REGEX_MARKERS`).
    static func looksLikeRegex(_ text: String) -> Bool {
        text.contains { "\\^$*+?{}[]()|".contains($0) }
    }

    private static func isHostCharacter(_ character: Character) -> Bool {
        character.isASCII
            && (character.isLetter || character.isNumber || character == "." || character == "-"
                || character == "_")
    }

    /// `a**b` as `a*b`.
    private static func collapsed(_ glob: String) -> String {
        var out = ""
        for character in glob where !(character == "*" && out.last == "*") { out.append(character) }
        return out
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }
}

/// The regular expressions that are sets of globs: each alternative a string where `*` is any run of characters.
private struct RegexGlob {
    typealias Refusal = ThumborAllowedSources.Refusal

    private let characters: [Character]
    private let entry: String
    private var index = 0
    /// Whether the expression ended with `$`.
    private(set) var anchoredAtEnd = false
    /// Alternatives beyond this are refused (`(a|b)(c|d)...` multiplies).
    private static let limit = 64

    init(_ text: String, entry: String) {
        characters = Array(text)
        self.entry = entry
    }

    mutating func globs() throws(Refusal) -> [String] {
        let globs = try alternatives()
        guard index == characters.count else { throw refusal("an unmatched ')'") }
        return globs
    }

    private func refusal(_ what: String) -> Refusal {
        Refusal(
            "\(entry): \(what) has no equivalent in wi serve's patterns (a host with * for any characters, "
                + "or a URL prefix)")
    }

    private var next: Character? { index < characters.count ? characters[index] : nil }

    private mutating func alternatives() throws(Refusal) -> [String] {
        var globs = try sequence()
        while next == "|" {
            index += 1
            globs += try sequence()
        }
        guard globs.count <= Self.limit else { throw refusal("more than \(Self.limit) alternatives") }
        return globs
    }

    private mutating func sequence() throws(Refusal) -> [String] {
        var globs = [""]
        while let character = next, character != "|", character != ")" {
            var pieces: [String]
            switch character {
            case "^":
                guard index == 0 else { throw refusal("'^' inside the pattern") }
                index += 1
                pieces = [""]
            case "$":
                guard index == characters.count - 1 else { throw refusal("'$' inside the pattern") }
                index += 1
                anchoredAtEnd = true
                pieces = [""]
            case "(":
                index += 1
                if next == "?" {
                    guard index + 1 < characters.count, characters[index + 1] == ":" else {
                        throw refusal("a '(?' group")
                    }
                    index += 2
                }
                pieces = try alternatives()
                guard next == ")" else { throw refusal("an unclosed '('") }
                index += 1
            case ".":
                index += 1
                if next == "*" {
                    index += 1
                    pieces = ["*"]
                } else if next == "+", index + 2 < characters.count, characters[index + 1] == "\\",
                    characters[index + 2] == "."
                {
                    index += 1
                    pieces = ["*"]
                } else {
                    throw refusal("'.' (any one character; write \\. for a dot)")
                }
            case "\\":
                guard index + 1 < characters.count else { throw refusal("a '\\' at the end") }
                let escaped = characters[index + 1]
                guard !escaped.isLetter, !escaped.isNumber, escaped != "*" else {
                    throw refusal("'\\\(escaped)'")
                }
                index += 2
                pieces = [String(escaped)]
            case "[", "{", "*", "+", "?":
                throw refusal("'\(character)'")
            default:
                index += 1
                pieces = [String(character)]
            }
            if next == "?" {
                index += 1
                if next == "?" { index += 1 }
                pieces.append("")
            } else if let quantifier = next, quantifier == "*" || quantifier == "+" || quantifier == "{" {
                throw refusal("'\(quantifier)' after a character or a group")
            }
            globs = globs.flatMap { glob in pieces.map { glob + $0 } }
            guard globs.count <= Self.limit else { throw refusal("more than \(Self.limit) alternatives") }
        }
        return globs
    }
}

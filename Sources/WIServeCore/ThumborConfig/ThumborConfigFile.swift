#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A thumbor configuration file (`thumbor.conf`, the Python module thumbor's `--conf` reads) as the assignments it
/// makes: `AUTO_WEBP = True`, `MAX_AGE = 24 * 60 * 60`, `ALLOWED_SOURCES = ['a.example', re.compile(r'...')]`.
///
/// The file is read, never run: each statement must assign a literal (numbers, strings in any quoting with
/// Python's escapes, True/False/None, lists, tuples, dicts, arithmetic on them, `re.compile(r'...')`); `import`
/// lines are passed over (they set nothing); anything else (a call such as `os.environ.get(...)`, a name, an
/// indented block) is refused with its line, every refused line at once. A name assigned twice keeps its last
/// value, as in Python.
///
/// Thread safety: a value type; safe to send and share.
package struct ThumborConfigFile: Sendable {
    /// `NAME = value` on `line` (the line the statement starts on).
    package struct Assignment: Equatable, Sendable {
        package var name: String
        package var value: ThumborConfigValue
        package var line: Int

        package init(name: String, value: ThumborConfigValue, line: Int) {
            self.name = name
            self.value = value
            self.line = line
        }
    }

    /// The path as given (messages and `--print-config` name it).
    package let path: String
    /// In the file's order, a repeated name each time.
    package let assignments: [Assignment]

    /// Reads and parses the file at `path`.
    package init(path: String) throws(ThumborConfigError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ThumborConfigError(
                path: path, problems: [.init(line: 0, "cannot read the thumbor configuration file")])
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ThumborConfigError(path: path, problems: [.init(line: 0, "the file is not UTF-8 text")])
        }
        try self.init(text: text, path: path)
    }

    /// Parses `text`, named `path` in messages.
    package init(text: String, path: String) throws(ThumborConfigError) {
        let lexer = ThumborConfigLexer(text)
        var assignments: [Assignment] = []
        var problems: [ThumborConfigError.Problem] = []
        for statement in lexer.statements {
            do {
                if let assignment = try ThumborConfigParser.assignment(statement) { assignments.append(assignment) }
            } catch {
                problems.append(error)
            }
        }
        if let problem = lexer.problem { problems.append(problem) }
        guard problems.isEmpty else {
            throw ThumborConfigError(path: path, problems: problems.sorted { $0.line < $1.line })
        }
        self.path = path
        self.assignments = assignments
    }

    /// The last assignment of `name`, as Python keeps it.
    package func last(_ name: String) -> Assignment? {
        assignments.last { $0.name == name }
    }

    /// Every name assigned, each once, in the order of its first assignment.
    package var names: [String] {
        var seen: Set<String> = []
        return assignments.compactMap { seen.insert($0.name).inserted ? $0.name : nil }
    }
}

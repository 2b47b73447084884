/// Why a thumbor configuration file cannot be used: each problem with its line, so that every refused line is
/// named at once.
///
/// Thread safety: a value type; safe to send and share.
package struct ThumborConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One refused line: its number (1-based; 0 when the problem is the whole file) and the reason.
    package struct Problem: Error, Sendable, Equatable {
        package var line: Int
        package var message: String

        package init(line: Int, _ message: String) {
            self.line = line
            self.message = message
        }
    }

    /// The file's path as given.
    package var path: String
    /// In line order.
    package var problems: [Problem]

    package init(path: String, problems: [Problem]) {
        self.path = path
        self.problems = problems
    }

    /// One line per problem: `thumbor.conf:12: ...`.
    package var description: String {
        problems.map { $0.line > 0 ? "\(path):\($0.line): \($0.message)" : "\(path): \($0.message)" }
            .joined(separator: "\n")
    }
}

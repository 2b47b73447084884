/// What a thumbor configuration file means to `wi serve`: the flags its settings set (with thumbor's meaning), the
/// settings that are already `wi serve`'s behaviour, and the ones it does not implement, told once in one warning,
/// those whose absence changes answers named apart.
///
/// Only the settings the file assigns count: one it leaves out keeps `wi serve`'s default, not thumbor's (thumbor's
/// ALLOW_UNSAFE_URL is True by default; `wi serve` accepts unsigned URLs only when told). docs/SERVE.md, "thumbor's
/// configuration file", has the table.
///
/// Thread safety: a value type; safe to send and share.
package struct ThumborSettings: Sendable {
    /// One `wi serve` flag and its values (a switch: `true` or `false`), from the settings named in `sources`.
    package struct Setting: Equatable, Sendable {
        package var flag: String
        package var values: [String]
        /// The thumbor settings it comes from, with their lines.
        package var sources: [Source]

        package init(flag: String, values: [String], sources: [Source]) {
            self.flag = flag
            self.values = values
            self.sources = sources
        }
    }

    /// A thumbor setting's name and the line of its (last) assignment.
    package struct Source: Equatable, Sendable {
        package var name: String
        package var line: Int

        package init(_ name: String, line: Int) {
            self.name = name
            self.line = line
        }
    }

    /// A setting `wi serve` does not implement whose absence changes answers, and how.
    package struct Difference: Equatable, Sendable {
        package var name: String
        package var reason: String

        package init(_ name: String, _ reason: String) {
            self.name = name
            self.reason = reason
        }
    }

    /// The file's path as given.
    package let path: String
    /// The flags the file sets, in the order of their first setting in the file.
    package private(set) var settings: [Setting] = []
    /// Settings assigned that `wi serve` does not implement and whose absence changes no answer (logging,
    /// metrics, storage paths...), in the file's order.
    package private(set) var ignored: [String] = []
    /// Settings assigned that `wi serve` does not implement and whose absence changes answers.
    package private(set) var differences: [Difference] = []

    /// The meaning of `file`'s settings. Throws, each with its line, a value of the wrong type or one with no
    /// equivalent (an ALLOWED_SOURCES regular expression that cannot be converted, a limit out of range).
    /// `home` is thumbor's default FILE_LOADER_ROOT_PATH (the HOME environment variable).
    package init(_ file: ThumborConfigFile, home: String?) throws(ThumborConfigError) {
        path = file.path
        var problems: [ThumborConfigError.Problem] = []
        for name in file.names {
            guard let assignment = file.last(name) else { continue }
            do {
                switch try Self.meaning(of: assignment, in: file, home: home) {
                case .flag(let flag, let values, let sources):
                    add(Setting(flag: flag, values: values, sources: sources))
                case .flagDiffering(let flag, let values, let sources, let reason):
                    add(Setting(flag: flag, values: values, sources: sources))
                    differences.append(Difference(name, reason))
                case .same:
                    break
                case .ignored:
                    ignored.append(name)
                case .differs(let reason):
                    differences.append(Difference(name, reason))
                }
            } catch {
                problems.append(error)
            }
        }
        guard problems.isEmpty else { throw ThumborConfigError(path: path, problems: problems) }
    }

    /// A flag set by two settings (the proxy's host and port) is one setting.
    private mutating func add(_ setting: Setting) {
        if let index = settings.firstIndex(where: { $0.flag == setting.flag }) {
            settings[index] = setting
        } else {
            settings.append(setting)
        }
    }

    /// The one warning `wi serve` logs at start, nil when every setting the file assigns is implemented.
    package var warning: String? {
        guard !ignored.isEmpty || !differences.isEmpty else { return nil }
        var text = "thumbor settings in \(path) that wi serve does not implement."
        if !ignored.isEmpty {
            text += " Ignored, answers the same: " + ignored.joined(separator: ", ") + "."
        }
        if !differences.isEmpty {
            text +=
                " Answers differ from thumbor's: "
                + differences.map { "\($0.name) (\($0.reason))" }.joined(separator: "; ")
        }
        return text
    }

    /// Where a setting came from, for `--print-config`: `thumbor thumbor.conf:12 SECURITY_KEY`.
    package func origin(of setting: Setting) -> String {
        "thumbor " + setting.sources.map { "\(path):\($0.line) \($0.name)" }.joined(separator: ", ")
    }
}

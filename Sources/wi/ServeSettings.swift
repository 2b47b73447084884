#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WIServeCore

/// Where `wi serve`'s settings come from, in this order of precedence: flags, the environment (`WI_SERVE_<FLAG>`,
/// upper case, dashes as underscores), a configuration file (`--config FILE` or `WI_SERVE_CONFIG`: one
/// `flag-name = value` per line, `#` comments, a list option on several lines), thumbor's configuration file
/// (`--thumbor-config FILE`, `WI_SERVE_THUMBOR_CONFIG` or `thumbor-config` in the file: the settings
/// `ThumborSettings` maps, with thumbor's meaning), then the defaults.
///
/// The layers become one argument list that ArgumentParser parses as usual (the environment's and the file's
/// settings first, the command line's last, each single-valued option taking its last value; a list given on a
/// higher layer replaces the lower layers' list), so checks, help and error messages stay ArgumentParser's. The
/// options are found by reflecting `Serve` itself: a new option is configurable everywhere without a table to
/// keep in step.
struct ServeSettings {
    /// One option of `Serve`: its flag name and whether it is a switch or takes a list.
    struct Setting: Equatable {
        let name: String
        let isSwitch: Bool
        let isList: Bool

        /// `WI_SERVE_MAX_PIXELS` for `max-pixels`.
        var environmentName: String { "WI_SERVE_" + name.uppercased().replacingDashes() }
    }

    /// Every option of `wi serve`, from its properties (`maxSourceBytes` is `max-source-bytes`).
    static let settings: [Setting] = Mirror(reflecting: Serve()).children.compactMap { child in
        guard let label = child.label, label.hasPrefix("_") else { return nil }
        let kind = String(describing: type(of: child.value))
        guard kind.hasPrefix("Option<") || kind.hasPrefix("Flag<") else { return nil }
        return Setting(
            name: kebabCase(String(label.dropFirst())), isSwitch: kind.hasPrefix("Flag<"),
            isList: kind.hasPrefix("Option<Array<"))
    }

    /// Where each setting's value came from, by flag name (missing: the default).
    private(set) var origins: [String: String] = [:]
    /// The arguments ArgumentParser parses.
    private(set) var arguments: [String] = []
    /// The thumbor settings `wi serve` does not implement, in one line to log at start (nil: none).
    private(set) var thumborWarning: String?

    /// Layers `commandLine` (the arguments after `serve`) over `environment` and the configuration files.
    /// Throws a one-line reason for a file that cannot be read or a line that is not `name = value` of a known
    /// option, and one line per refused line of thumbor's file.
    init(commandLine: [String], environment: [String: String]) throws {
        let given = Self.names(in: commandLine)
        var file: [(Setting, String, String)] = []
        if let path = Self.value(of: "config", in: commandLine) ?? environment["WI_SERVE_CONFIG"] {
            file = try Self.read(path)
        }
        var thumbor: ThumborSettings?
        if let path = Self.value(of: "thumbor-config", in: commandLine) ?? environment["WI_SERVE_THUMBOR_CONFIG"]
            ?? file.last(where: { $0.0.name == "thumbor-config" })?.1
        {
            do {
                thumbor = try ThumborSettings(ThumborConfigFile(path: path), home: environment["HOME"])
            } catch {
                throw ServeSettingsError(error.description)
            }
            thumborWarning = thumbor?.warning
        }
        var layered: [String] = []
        for setting in Self.settings where setting.name != "config" && !given.contains(setting.name) {
            let lines = file.filter { $0.0 == setting }
            if let text = environment[setting.environmentName] {
                layered += Self.arguments(for: setting, values: setting.isList ? Self.list(text) : [text])
                origins[setting.name] = "environment \(setting.environmentName)"
            } else if !lines.isEmpty {
                layered += Self.arguments(for: setting, values: lines.map(\.1))
                origins[setting.name] = lines.map(\.2).joined(separator: ", ")
            } else if let thumbor, let mapped = thumbor.settings.first(where: { $0.flag == setting.name }) {
                layered += Self.arguments(for: setting, values: mapped.values)
                origins[setting.name] = thumbor.origin(of: mapped)
            }
        }
        for name in given { origins[name] = "flag" }
        arguments = layered + commandLine
    }

    /// The `--name` arguments for `values` (a switch: present when its value says yes).
    private static func arguments(for setting: Setting, values: [String]) -> [String] {
        if setting.isSwitch {
            return ["1", "true", "yes", "on"].contains(values.last?.lowercased() ?? "") ? ["--\(setting.name)"] : []
        }
        return values.map { "--\(setting.name)=\($0)" }  // "=": a value may start with a dash
    }

    /// The option names the command line gives (`--name value`, `--name=value`, a switch).
    private static func names(in arguments: [String]) -> Set<String> {
        Set(
            arguments.compactMap { argument -> String? in
                guard argument.hasPrefix("--") else { return nil }
                let name = String(argument.dropFirst(2).prefix { $0 != "=" })
                return settings.contains { $0.name == name } ? name : nil
            })
    }

    /// The value the command line gives `--name`, if any.
    private static func value(of name: String, in arguments: [String]) -> String? {
        for (index, argument) in arguments.enumerated() {
            if argument == "--\(name)", index + 1 < arguments.count { return arguments[index + 1] }
            if argument.hasPrefix("--\(name)=") { return String(argument.dropFirst(name.count + 3)) }
        }
        return nil
    }

    /// Comma-separated items, each trimmed (`WI_SERVE_KEY=new,old`).
    private static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0).trimmingSpacesAndTabs() }.filter { !$0.isEmpty }
    }

    /// The file's settings with their values and origins (`file PATH:LINE`).
    private static func read(_ path: String) throws -> [(Setting, String, String)] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServeSettingsError("cannot read the configuration file \(path)")
        }
        var found: [(Setting, String, String)] = []
        for (index, raw) in String(decoding: data, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        ).enumerated() {
            let line = String(raw).trimmingSpacesAndTabs()
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw ServeSettingsError("\(path):\(index + 1): expected name = value")
            }
            let name = String(line[..<equals]).trimmingSpacesAndTabs()
            var value = String(line[line.index(after: equals)...]).trimmingSpacesAndTabs()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            guard let setting = settings.first(where: { $0.name == name }), name != "config" else {
                throw ServeSettingsError("\(path):\(index + 1): no option named \(name)")
            }
            found.append((setting, value, "file \(path):\(index + 1)"))
        }
        return found
    }

    /// `maxSourceBytes` as `max-source-bytes`.
    static func kebabCase(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase {
                out += "-" + character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }
}

/// A configuration layer that cannot be used: its one-line reason.
struct ServeSettingsError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension String {
    fileprivate func replacingDashes() -> String { String(map { $0 == "-" ? "_" : $0 }) }
}

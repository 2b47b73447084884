import Foundation
import Testing
import WITestSupport

/// `wi serve` takes each setting from its flag, else the environment (`WI_SERVE_<FLAG>`), else a configuration
/// file, else its default, and `--print-config` says which.
@Suite struct ServeCommandTests {
    let wi = CommandRunner.productPath("wi")

    /// The `--print-config` lines as name: (value, origin).
    func settings(_ output: String) -> [String: (String, String)] {
        var found: [String: (String, String)] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "#", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
            let pair = parts[0].split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
            found[pair[0]] = (pair[1], parts.count > 1 ? parts[1] : "")
        }
        return found
    }

    @Test func flagsOverTheEnvironmentOverTheFileOverTheDefaults() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wi-serve-\(UUID().uuidString).conf")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("""
            # wi serve settings
            queue = 7
            max-pixels = 5
            allow-source = https://a.example/
            allow-source = *.b.example
            keep-metadata = true
            port = 1

            """.utf8).write(to: file)
        let result = try CommandRunner.run(wi, ["serve", "--config", file.path, "--port", "9", "--allow-unsafe", "--print-config"],
                                           environment: ["WI_SERVE_MAX_PIXELS": "123", "WI_SERVE_KEY": "new, old",
                                                         "WI_SERVE_AUTO_WEBP": "yes"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = settings(result.stdout)
        #expect(lines["port"]! == ("9", "flag"))
        #expect(lines["max-pixels"]! == ("123", "environment WI_SERVE_MAX_PIXELS"))
        #expect(lines["queue"]! == ("7", "file \(file.path):2"))
        #expect(lines["allow-source"]! == ("https://a.example/, *.b.example", "file \(file.path):4, file \(file.path):5"))
        #expect(lines["keep-metadata"]! == ("true", "file \(file.path):6"))
        #expect(lines["key"]! == ("2 key(s), not shown", "environment WI_SERVE_KEY"))
        #expect(lines["auto-webp"]! == ("true", "environment WI_SERVE_AUTO_WEBP"))
        #expect(lines["allow-unsafe"]! == ("true", "flag"))
        #expect(lines["bind"]! == ("127.0.0.1", "default"))
        #expect(lines["timeout"]! == ("30.0", "default"))
        // A list given as a flag replaces the lower layers' list.
        let replaced = try CommandRunner.run(wi, ["serve", "--config", file.path, "--allow-source", "c.example",
                                                  "--allow-unsafe", "--print-config"])
        #expect(settings(replaced.stdout)["allow-source"]! == ("c.example", "flag"))
    }

    @Test func badLayersAreUsageErrors() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wi-serve-\(UUID().uuidString).conf")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("queue = 7\nsepia = 1\n".utf8).write(to: file)
        let unknown = try CommandRunner.run(wi, ["serve", "--config", file.path, "--allow-unsafe"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "wi serve: \(file.path):2: no option named sepia\n")
        let missing = try CommandRunner.run(wi, ["serve", "--allow-unsafe"], environment: ["WI_SERVE_CONFIG": "/nonexistent.conf"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "wi serve: cannot read the configuration file /nonexistent.conf\n")
        // A value out of range from the environment is refused like the flag's.
        let range = try CommandRunner.run(wi, ["serve", "--allow-unsafe"], environment: ["WI_SERVE_QUEUE": "-1"])
        #expect(range.status == 2)
        #expect(range.stderr.contains("queue must be in 0...1000000, got -1"))
    }
}

import Foundation
import Testing
import WITestServer
import WITestSupport

/// `wi serve` takes each setting from its flag, else the environment (`WI_SERVE_<FLAG>`), else a configuration
/// file, else its default, and `--print-config` says which.
@Suite struct ServeCommandTests {
    let wi = CommandRunner.productPath("wi")

    /// The `--print-config` lines as name: (value, origin).
    static func settings(_ output: String) -> [String: (String, String)] {
        var found: [String: (String, String)] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "#", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
            let pair = parts[0].split(separator: "=", maxSplits: 1).map {
                String($0).trimmingCharacters(in: .whitespaces)
            }
            found[pair[0]] = (pair[1], parts.count > 1 ? parts[1] : "")
        }
        return found
    }

    func settings(_ output: String) -> [String: (String, String)] { Self.settings(output) }

    @Test func flagsOverTheEnvironmentOverTheFileOverTheDefaults() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wi-serve-\(UUID().uuidString).conf")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(
            """
            # wi serve settings
            queue = 7
            max-pixels = 5
            allow-source = https://a.example/
            allow-source = *.b.example
            keep-metadata = true
            port = 1

            """.utf8
        ).write(to: file)
        let result = try CommandRunner.run(
            wi, ["serve", "--config", file.path, "--port", "9", "--allow-unsafe", "--print-config"],
            environment: [
                "WI_SERVE_MAX_PIXELS": "123", "WI_SERVE_KEY": "new, old",
                "WI_SERVE_AUTO_WEBP": "yes", "WI_SERVE_STRICT": "true",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = settings(result.stdout)
        #expect(lines["port"]! == ("9", "flag"))
        #expect(lines["max-pixels"]! == ("123", "environment WI_SERVE_MAX_PIXELS"))
        #expect(lines["queue"]! == ("7", "file \(file.path):2"))
        #expect(
            lines["allow-source"]! == ("https://a.example/, *.b.example", "file \(file.path):4, file \(file.path):5"))
        #expect(lines["keep-metadata"]! == ("true", "file \(file.path):6"))
        #expect(lines["key"]! == ("2 key(s), not shown", "environment WI_SERVE_KEY"))
        #expect(lines["auto-webp"]! == ("true", "environment WI_SERVE_AUTO_WEBP"))
        #expect(lines["strict"]! == ("true", "environment WI_SERVE_STRICT"))
        #expect(lines["allow-unsafe"]! == ("true", "flag"))
        #expect(lines["bind"]! == ("127.0.0.1", "default"))
        #expect(lines["timeout"]! == ("30.0", "default"))
        // Every option has its line and its value.
        #expect(!result.stdout.contains("(missing from effectiveValues)"))
        #expect(lines.count == result.stdout.split(separator: "\n").count && lines.count >= 37)
        // A list given as a flag replaces the lower layers' list.
        let replaced = try CommandRunner.run(
            wi,
            [
                "serve", "--config", file.path, "--allow-source", "c.example",
                "--allow-unsafe", "--print-config",
            ])
        #expect(settings(replaced.stdout)["allow-source"]! == ("c.example", "flag"))
    }

    @Test func badLayersAreUsageErrors() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wi-serve-\(UUID().uuidString).conf")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("queue = 7\nsepia = 1\n".utf8).write(to: file)
        let unknown = try CommandRunner.run(wi, ["serve", "--config", file.path, "--allow-unsafe"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "wi serve: \(file.path):2: no option named sepia\n")
        let missing = try CommandRunner.run(
            wi, ["serve", "--allow-unsafe"], environment: ["WI_SERVE_CONFIG": "/nonexistent.conf"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "wi serve: cannot read the configuration file /nonexistent.conf\n")
        // A value out of range from the environment is refused like the flag's.
        let range = try CommandRunner.run(wi, ["serve", "--allow-unsafe"], environment: ["WI_SERVE_QUEUE": "-1"])
        #expect(range.status == 2)
        #expect(range.stderr.contains("queue must be in 0...1000000, got -1"))
    }
}

/// `wi serve` gives the memory of a large request back: buffers of 32 MiB and more are unmapped when freed, an
/// arena's free top beyond 32 MiB is trimmed, and the free pages of every arena are given back half a second after the
/// last request ends (`malloc_trim` from `ServeConfiguration.whenIdle`), so the resident set returns to within 40 MiB
/// of what it was before (54 -> 65 MiB measured).
@Suite struct ServeMemoryTests {
    let wi = CommandRunner.productPath("wi")

    /// The resident set of `pid` in MiB.
    static func residentMiB(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])) / 1024
    }

    /// `wi serve --allow-unsafe --port 0 --no-cache` with `arguments`, and the port its first line names.
    func start(_ arguments: [String]) throws -> (Process, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wi)
        process.arguments = ["serve", "--allow-unsafe", "--port", "0", "--no-cache"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let port = text.split(separator: ":").last.flatMap({ Int($0.prefix { $0.isNumber }) }) else {
            process.terminate()
            process.waitUntilExit()
            throw StartFailure(description: "wi serve did not say where it listens: \(text)")
        }
        return (process, port)
    }

    /// thumbor's SVG_DPI reaches the SVG coder in process and in the sandboxed decode workers (`wi decode-worker
    /// --svg-dpi`): a 1in x 0.5in document is 150x75 at the default, 72x36 at `--svg-dpi 72`, either way.
    @Test func svgDpiReachesTheDecodeWorkers() throws {
        let root = Fixtures.url("serve-svg").path
        for (arguments, size) in [
            (["--isolate", "uncancellable"], "150x75"), (["--isolate", "none"], "150x75"),
            (["--isolate", "uncancellable", "--svg-dpi", "72"], "72x36"),
            (["--isolate", "none", "--svg-dpi", "72"], "72x36"),
        ] {
            let (process, port) = try start(["--file-root", root] + arguments)
            defer {
                process.terminate()
                process.waitUntilExit()
            }
            let result = try CommandRunner.run(
                "/usr/bin/curl",
                [
                    "-s", "-o", "/dev/null", "-w", "%{http_code} %{content_type}",
                    "http://127.0.0.1:\(port)/unsafe/inches.svg",
                ])
            #expect(result.stdout == "200 image/png", "\(arguments)")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("wi-svg-dpi-\(UUID()).png")
            defer { try? FileManager.default.removeItem(at: file) }
            _ = try CommandRunner.run(
                "/usr/bin/curl", ["-s", "-o", file.path, "http://127.0.0.1:\(port)/unsafe/inches.svg"])
            let info = try CommandRunner.run(wi, ["info", file.path])
            #expect(info.stdout.contains(size), "\(arguments): \(info.stdout)")
        }
    }

    @Test func residentMemoryReturnsAfterALargeRequest() async throws {
        let origin = try await TestHTTPServer.start()
        let photo = Fixtures.data("attention/anemone.jpg")
        origin.route("/photo.jpg") { _ in TestResponse(body: photo, contentType: "image/jpeg") }
        let (process, port) = try start(["--allow-host", "127.0.0.1", "--isolate", "none"])
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let base = "http://127.0.0.1:\(port)/unsafe"
        _ = try CommandRunner.run(
            "/usr/bin/curl", ["-s", "-o", "/dev/null", "\(base)/60x40/\(origin.url("/photo.jpg"))"])
        let before = try Self.residentMiB(process.processIdentifier)
        // 600x400 enlarged to 2400x1600 and sharpened: about 150 MB of pixels and planes at its peak, twice.
        for _ in 0..<2 {
            let result = try CommandRunner.run(
                "/usr/bin/curl",
                [
                    "-s", "-o", "/dev/null", "-w", "%{http_code}",
                    "\(base)/fit-in/2400x1600/filters:upscale():sharpen(1,1,false)/\(origin.url("/photo.jpg"))",
                ])
            #expect(result.stdout == "200")
        }
        // The idle service trims half a second after the last answer: wait for the resident set to come down.
        var after = try Self.residentMiB(process.processIdentifier)
        for _ in 0..<100 where after > before + 40 {
            try await Task.sleep(for: .milliseconds(50))
            after = try Self.residentMiB(process.processIdentifier)
        }
        #expect(after <= before + 40, "resident \(before) MiB before, \(after) MiB after")
        await origin.stop()
    }
}

/// `wi serve` ended before it said where it listens.
struct StartFailure: Error, CustomStringConvertible {
    let description: String
}

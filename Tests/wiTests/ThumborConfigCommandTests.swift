import Foundation
import Testing
import WITestSupport

/// `wi serve --thumbor-config FILE`: a thumbor.conf as thumbor's documentation has users write it starts the
/// service with every setting `wi serve` implements; the file sits below the flags, the environment and `--config`;
/// a bad file is a usage error naming each line; the settings it ignores are one warning at start.
@Suite struct ThumborConfigCommandTests {
    let wi = CommandRunner.productPath("wi")

    /// The `--print-config` lines as name: (value, origin).
    func settings(_ output: String) -> [String: (String, String)] { ServeCommandTests.settings(output) }

    func temporaryFile(_ text: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("thumbor-\(UUID().uuidString).conf")
        try Data(text.utf8).write(to: file)
        return file
    }

    /// thumbor-config/thumbor.conf (make-thumbor-conf.py: thumbor's generated file, 19 settings uncommented).
    @Test func thumborsOwnGeneratedFileAppliesEverySupportedSetting() throws {
        let path = Fixtures.url("thumbor-config/thumbor.conf").path
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        func line(_ name: String) throws -> Int { try #require(lines.firstIndex { $0.hasPrefix("\(name) = ") }) + 1 }
        func origin(_ names: String...) throws -> String {
            var parts: [String] = []
            for name in names {
                let number = try line(name)
                parts.append("\(path):\(number) \(name)")
            }
            return "thumbor " + parts.joined(separator: ", ")
        }
        let result = try CommandRunner.run(wi, ["serve", "--thumbor-config", path, "--print-config"])
        #expect(result.status == 0, "\(result.stderr)")
        let found = settings(result.stdout)
        let expected: [(String, String, String)] = [
            ("key", "1 key(s), not shown", try origin("SECURITY_KEY")),
            ("allow-unsafe", "false", try origin("ALLOW_UNSAFE_URL")),
            ("auto-webp", "true", try origin("AUTO_WEBP")),
            ("auto-avif", "true", try origin("AUTO_AVIF")),
            ("max-age", "86400", try origin("MAX_AGE")),
            ("max-pixels", "20000000", try origin("MAX_PIXELS")),
            ("quality", "90", try origin("QUALITY")),
            ("webp-quality", "85", try origin("WEBP_QUALITY")),
            ("avif-quality", "(--quality)", "default"),
            ("keep-metadata", "true", try origin("PRESERVE_EXIF_INFO")),
            ("keep-copyright", "true", try origin("PRESERVE_EXIF_COPYRIGHT_INFO")),
            ("file-root", "/srv/images", try origin("LOADER", "FILE_LOADER_ROOT_PATH")),
            ("origin-timeout", "12.5", try origin("HTTP_LOADER_REQUEST_TIMEOUT")),
            ("proxy", "http://proxy.internal:3128", try origin("HTTP_LOADER_PROXY_HOST", "HTTP_LOADER_PROXY_PORT")),
            (
                "allow-source",
                "images.example.com, *.static.example.com, static.example.com, https://cdn.example.com/public/",
                try origin("ALLOWED_SOURCES")
            ),
            ("thumbor-config", path, "flag"),
            // What thumbor's file does not set keeps wi serve's default.
            ("max-source-bytes", "33554432", "default"),
        ]
        for (name, value, origin) in expected {
            let line = try #require(found[name], "\(name)")
            #expect(line == (value, origin), "\(name)")
        }
        #expect(
            result.stderr == "wi serve: warning: thumbor settings in \(path) that wi serve does not implement. "
                + "Ignored, answers the same: STATSD_HOST. Answers differ from thumbor's: LOADER (a path that is no file "
                + "under the root is a 404, not fetched over HTTP as thumbor's fallback does); DETECTORS (smart/ crops by "
                + "the attention crop, not by these detectors)\n")
    }

    @Test func flagsOverTheEnvironmentOverTheConfigFileOverThumborsFile() throws {
        let thumbor = try temporaryFile(
            """
            MAX_AGE = 3600
            MAX_PIXELS = 1000
            SECURITY_KEY = 'from-thumbor'
            HTTP_LOADER_REQUEST_TIMEOUT = 7
            ALLOWED_SOURCES = ['t.example']
            AUTO_WEBP = True

            """)
        let config = try temporaryFile("max-pixels = 2000\nthumbor-config = \(thumbor.path)\n")
        defer {
            try? FileManager.default.removeItem(at: thumbor)
            try? FileManager.default.removeItem(at: config)
        }
        let result = try CommandRunner.run(
            wi, ["serve", "--config", config.path, "--max-age", "60", "--print-config"],
            environment: ["WI_SERVE_ORIGIN_TIMEOUT": "8"])
        #expect(result.status == 0, "\(result.stderr)")
        let found = settings(result.stdout)
        #expect(found["max-age"]! == ("60", "flag"))
        #expect(found["origin-timeout"]! == ("8.0", "environment WI_SERVE_ORIGIN_TIMEOUT"))
        #expect(found["max-pixels"]! == ("2000", "file \(config.path):1"))
        #expect(found["key"]! == ("1 key(s), not shown", "thumbor \(thumbor.path):3 SECURITY_KEY"))
        #expect(found["allow-source"]! == ("t.example", "thumbor \(thumbor.path):5 ALLOWED_SOURCES"))
        #expect(found["auto-webp"]! == ("true", "thumbor \(thumbor.path):6 AUTO_WEBP"))
        #expect(found["thumbor-config"]! == (thumbor.path, "file \(config.path):2"))
        #expect(result.stderr.isEmpty)
        // A list flag replaces thumbor's list; the environment names thumbor's file too.
        let replaced = try CommandRunner.run(
            wi, ["serve", "--allow-source", "c.example", "--print-config"],
            environment: ["WI_SERVE_THUMBOR_CONFIG": thumbor.path])
        let again = settings(replaced.stdout)
        #expect(again["allow-source"]! == ("c.example", "flag"))
        #expect(again["max-age"]! == ("3600", "thumbor \(thumbor.path):1 MAX_AGE"))
        #expect(again["thumbor-config"]! == (thumbor.path, "environment WI_SERVE_THUMBOR_CONFIG"))
    }

    @Test func aBadFileIsAUsageErrorNamingEachLine() throws {
        let file = try temporaryFile(
            """
            import os
            SECURITY_KEY = os.environ.get('THUMBOR_KEY')
            ALLOW_UNSAFE_URL = True
            ALLOWED_SOURCES = [r'img[0-9]\\.example\\.com'

            """)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try CommandRunner.run(wi, ["serve", "--thumbor-config", file.path, "--print-config"])
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                wi serve: \(file.path):2: 'SECURITY_KEY = os.environ.get('THUMBOR_KEY')' is not a literal: wi serve reads literal values only (numbers, strings, True, False, None, lists, tuples, dicts, arithmetic on them, re.compile(r'...'))
                wi serve: \(file.path):4: '[' is never closed

                """)
        let unconvertible = try temporaryFile(
            "ALLOW_UNSAFE_URL = True\nALLOWED_SOURCES = [r'img[0-9]\\.example\\.com']\n")
        defer { try? FileManager.default.removeItem(at: unconvertible) }
        let refused = try CommandRunner.run(wi, ["serve", "--thumbor-config", unconvertible.path])
        #expect(refused.status == 2)
        #expect(
            refused.stderr
                == "wi serve: \(unconvertible.path):2: ALLOWED_SOURCES: 'img[0-9]\\.example\\.com': '[' has no "
                + "equivalent in wi serve's patterns (a host with * for any characters, or a URL prefix)\n")
        let missing = try CommandRunner.run(wi, ["serve", "--thumbor-config", "/nonexistent/thumbor.conf"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "wi serve: /nonexistent/thumbor.conf: cannot read the thumbor configuration file\n")
    }

    /// The warning is logged once when the server starts, before it listens.
    @Test func theWarningIsLoggedOnceAtStart() throws {
        let file = try temporaryFile(
            "ALLOW_UNSAFE_URL = True\nSTATSD_HOST = 'statsd'\nOPTIMIZERS = ['thumbor.optimizers.jpegtran']\n")
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wi)
        process.arguments = ["serve", "--thumbor-config", file.path, "--port", "0", "--no-cache", "--isolate", "none"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        var text = ""
        while !text.contains("listening on") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let warnings = text.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count == 1, "\(text)")
        #expect(
            warnings.first?.hasSuffix(
                "thumbor settings in \(file.path) that wi serve does not implement. Ignored, "
                    + "answers the same: STATSD_HOST. Answers differ from thumbor's: OPTIMIZERS (answers are not passed "
                    + "through these optimizers)") == true, "\(text)")
    }
}

import Foundation
import Testing
import WITestServer
import WITestSupport

@Suite struct FetchCommandTests {
    let wi = CommandRunner.productPath("wi")

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wi-fetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func objects(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    @Test func secondRunComesFromTheDiskCache() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = ["formats/sample.png", "formats/sample.jpg", "formats/sample.gif"].map { Fixtures.url($0).path }
        let arguments =
            ["fetch"] + files + [
                "--thumbnail", "16", "--cache-dir", directory.path, "--json",
                "--out", directory.appendingPathComponent("out").path,
            ]
        let first = try CommandRunner.run(wi, arguments)
        #expect(first.status == 0, "\(first.stderr)")
        let cold = try objects(first.stdout)
        #expect(cold.map { $0["cache_type"] as? String } == ["none", "none", "none"])
        #expect(cold.map { $0["url"] as? String } == files)
        for object in cold {
            #expect(Set(object.keys) == ["url", "cache_type", "width", "height", "frames", "bytes", "ms", "error"])
            #expect(object["error"] is NSNull)
            #expect(max(object["width"] as! Int, object["height"] as! Int) == 16)
        }
        let second = try CommandRunner.run(wi, arguments)
        #expect(try objects(second.stdout).map { $0["cache_type"] as? String } == ["disk", "disk", "disk"])
        let written = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path)
        #expect(written.count == 3)
        let stats = try CommandRunner.run(wi, ["cache", "stats", "--cache-dir", directory.path, "--json"])
        #expect(stats.stdout.contains("\"count\":6"))  // each original and its thumbnail under its own key
    }

    /// Fewer loads at once than URLs (one at a time, then two) still loads every URL once, and reports them in the
    /// order given.
    @Test(arguments: ["1", "2"])
    func concurrencyBelowTheURLCountLoadsEveryURL(_ concurrency: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let names = [
            "formats/sample.png", "formats/sample.jpg", "formats/sample.gif", "formats/sample.webp",
            "formats/sample.png",
        ]
        let files = names.map { Fixtures.url($0).path }
        let result = try CommandRunner.run(
            wi,
            ["fetch"] + files + [
                "--thumbnail", "8", "--cache-dir", directory.path,
                "--json", "--concurrency", concurrency,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try objects(result.stdout)
        #expect(lines.map { $0["url"] as? String } == files)
        #expect(lines.prefix(4).map { $0["cache_type"] as? String } == ["none", "none", "none", "none"])
        // One at a time, the repeated URL's first load had finished when its turn came (with two, it may not have).
        if concurrency == "1" { #expect(lines[4]["cache_type"] as? String == "memory") }
        #expect(lines.allSatisfy { max($0["width"] as! Int, $0["height"] as! Int) == 8 })
    }

    /// `--out` with a thumbnail size encodes each image once: the cold run stores the thumbnail in the output's
    /// format and writes those same bytes, the warm run writes the disk cache's entry as read, so both runs write
    /// identical files. `--first-frame` makes an animation's output a still, also from a cache entry that holds
    /// every frame (then the entry's bytes are not reused).
    @Test func thumbnailOutputsAreEncodedOnceAndTheSameOnEveryRun() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = ["formats/sample.jpg", "formats/sample.webp", "gif/animated-red-blue.gif"].map {
            Fixtures.url($0).path
        }
        func run(_ cache: String, _ out: String, _ extra: [String]) throws -> (frames: [Int], outputs: [String: Data]) {
            let folder = directory.appendingPathComponent(out)
            let result = try CommandRunner.run(
                wi,
                ["fetch"] + files + [
                    "--thumbnail", "32", "--format", "png", "--json", "--cache-dir",
                    directory.appendingPathComponent(cache).path,
                    "--out", folder.path,
                ] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            var outputs: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                outputs[name] = try Data(contentsOf: folder.appendingPathComponent(name))
            }
            return (try objects(result.stdout).map { $0["frames"] as? Int ?? -1 }, outputs)
        }
        func isAnimatedPNG(_ data: Data) -> Bool { data.firstRange(of: Data("acTL".utf8)) != nil }
        let names = ["0-sample.png", "1-sample.png", "2-animated-red-blue.png"]

        let cold = try run("stills", "cold", ["--first-frame"])
        let warm = try run("stills", "warm", ["--first-frame"])
        #expect(cold.frames == [1, 1, 1] && warm.frames == [1, 1, 1])
        #expect(cold.outputs.keys.sorted() == names)
        #expect(cold.outputs.values.allSatisfy { $0.starts(with: [0x89, 0x50, 0x4E, 0x47]) && !isAnimatedPNG($0) })
        #expect(warm.outputs == cold.outputs)

        let animated = try run("frames", "animated", [])
        let still = try run("frames", "still", ["--first-frame"])
        #expect(animated.frames == [1, 1, 4] && still.frames == [1, 1, 1])
        #expect(animated.outputs[names[2]].map(isAnimatedPNG) == true)
        #expect(still.outputs[names[2]].map(isAnimatedPNG) == false)
        #expect(still.outputs[names[2]] == cold.outputs[names[2]])
        #expect(still.outputs[names[0]] == cold.outputs[names[0]])
    }

    /// `--refresh` revalidates a cached image with its stored validators: a 304 keeps the disk entry
    /// ("revalidated": true), new bytes replace it ("revalidated": false, cache_type "none").
    @Test func refreshRevalidatesWithTheStoredValidators() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestHTTPServer.start()
        let png = Fixtures.data("formats/sample.png")
        let gif = Fixtures.data("formats/sample.gif")
        server.route("/a") { .cacheable(png, etag: "\"v1\"", cacheControl: "max-age=3600", request: $0) }
        let arguments = ["fetch", server.url("/a").absoluteString, "--cache-dir", directory.path, "--json"]
        let cold = try CommandRunner.run(wi, arguments)
        #expect(cold.status == 0, "\(cold.stderr)")
        #expect(try objects(cold.stdout)[0]["cache_type"] as? String == "none")
        #expect(try objects(cold.stdout)[0]["revalidated"] == nil)  // only with --refresh

        let confirmed = try CommandRunner.run(wi, arguments + ["--refresh"])
        #expect(confirmed.status == 0, "\(confirmed.stderr)")
        let line = try objects(confirmed.stdout)[0]
        #expect(line["cache_type"] as? String == "disk")
        #expect(line["revalidated"] as? Bool == true)
        #expect(line["width"] as? Int == 300)

        server.route("/a") { .cacheable(gif, etag: "\"v2\"", cacheControl: "max-age=3600", request: $0) }
        let changed = try objects(try CommandRunner.run(wi, arguments + ["--refresh"]).stdout)[0]
        #expect(changed["cache_type"] as? String == "none")
        #expect(changed["revalidated"] as? Bool == false)
        #expect(changed["frames"] as? Int == 5)
        let warm = try objects(try CommandRunner.run(wi, arguments).stdout)[0]
        #expect(warm["cache_type"] as? String == "disk" && warm["frames"] as? Int == 5)

        let exchanges = server.exchanges("/a")
        #expect(exchanges.map(\.status) == [200, 304, 200])
        #expect(exchanges.map(\.bodyBytes) == [png.count, 0, gif.count])
        #expect(exchanges.map(\.request.validators.ifNoneMatch) == [nil, "\"v1\"", "\"v1\""])
        #expect(try CommandRunner.run(wi, arguments + ["--refresh", "--no-cache"]).status == 2)
    }

    @Test func failuresExitOneWithAReadableLine() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CommandRunner.run(
            wi,
            [
                "fetch", Fixtures.url("pngsuite/xcsn0g01.png").path, "--cache-dir",
                directory.path, "--json",
            ])
        #expect(result.status == 1)
        #expect(try objects(result.stdout)[0]["error"] as? String == "1001: PNG: IDAT: CRC error")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try CommandRunner.run(wi, ["fetch", "x.png", "--resize", "abc"]).status == 2)
    }

    /// Out-of-range values from the command line are usage errors: exit code 2 and exactly one line on stderr
    /// naming the option and the library's reason; nothing is loaded and nothing traps.
    @Test(arguments: [
        (
            ["fetch", "x.png", "--resize", "0x5"],
            "wi: --resize: resize width must be in 1...32767, got 0 (see wi --help)\n"
        ),
        (
            ["fetch", "x.png", "--resize", "40000x10"],
            "wi: --resize: resize width must be in 1...32767, got 40000 (see wi --help)\n"
        ),
        (
            ["fetch", "x.png", "--resize", "32767x8193"],
            "wi: --resize: resize size must have at most 268435456 pixels, got 32767x8193 (see wi --help)\n"
        ),
        (
            ["fetch", "x.png", "--thumbnail", "70000"],
            "wi: --thumbnail: thumbnail width must be in 0...65536, got 70000 (see wi --help)\n"
        ),
        (["fetch", "x.png", "--thumbnail", "0"], "wi: --thumbnail must be positive (see wi --help)\n"),
        (
            ["fetch", "x.png", "--quality", "nan"],
            "wi: --quality: quality must be a finite number in 0...1, got nan (see wi --help)\n"
        ),
        (
            ["fetch", "x.png", "--quality", "inf"],
            "wi: --quality: quality must be a finite number in 0...1, got inf (see wi --help)\n"
        ),
        (
            ["convert", "a.png", "b.png", "--quality", "1.5"],
            "wi: --quality: quality must be a finite number in 0...1, got 1.5 (see wi --help)\n"
        ),
        (
            ["convert", "a.png", "b.png", "--thumbnail", "99999"],
            "wi: --thumbnail: thumbnail width must be in 0...65536, got 99999 (see wi --help)\n"
        ),
        (
            ["prefetch", "--from", "x.txt", "--concurrency", "0"],
            "wi: --concurrency must be in 1...1024, got 0 (see wi --help)\n"
        ),
        (["fetch", "x.png", "--concurrency", "0"], "wi: --concurrency must be in 1...1024, got 0 (see wi --help)\n"),
        (
            ["fetch", "x.png", "--concurrency", "1025"],
            "wi: --concurrency must be in 1...1024, got 1025 (see wi --help)\n"
        ),
        (
            ["fetch", "x.png", "--thumbnail", "99999999999999999999"],
            "wi: The value '99999999999999999999' is invalid for '--thumbnail <thumbnail>' (see wi --help)\n"
        ),
    ])
    func badArgumentsExitTwoWithOneLine(_ arguments: [String], _ stderr: String) throws {
        let result = try CommandRunner.run(wi, arguments)
        #expect(result.status == 2)
        #expect(result.stderr == stderr)
        #expect(result.stdout.isEmpty)
    }

    @Test func prefetchSummaryCountsAFailingURL() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("urls.txt")
        let lines = [
            "# samples", Fixtures.url("formats/sample.png").path, "", Fixtures.url("formats/sample.webp").path,
            Fixtures.url("does-not-exist.png").path,
        ]
        try lines.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let first = try CommandRunner.run(wi, ["prefetch", "--from", list.path, "--cache-dir", directory.path])
        #expect(first.status == 1)
        #expect(first.stdout.split(separator: "\n").count == 4)  // three URL lines and the summary
        #expect(first.stdout.contains("prefetched 3: 2 loaded, 0 from memory, 0 from disk, 1 failed"))
        let second = try CommandRunner.run(
            wi, ["prefetch", "--from", list.path, "--cache-dir", directory.path, "--json"])
        // A JSON-lines stream stays JSON to its end: three URL objects, then the summary as an object.
        let objects = try second.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        #expect(objects.count == 4)
        #expect(objects.prefix(3).allSatisfy { $0["url"] is String })
        let summary = try #require(objects.last)
        #expect(summary["prefetched"] as? Int == 3 && summary["loaded"] as? Int == 0)
        #expect(summary["from_memory"] as? Int == 0 && summary["from_disk"] as? Int == 2)
        #expect(summary["failed"] as? Int == 1 && summary["url"] == nil)
    }
}

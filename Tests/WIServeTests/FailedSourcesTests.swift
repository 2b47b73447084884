import Foundation
import HTTPTypes
import InMemoryTracing
import Tracing
import HummingbirdTesting
import Testing
import WebImage
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// A source that failed is answered again from memory for a while: a retry storm of one URL reaches its origin
/// once.
@Suite struct FailedSourcesTests {
    typealias H = ServeHarness

    @Test func failuresLastTheirTTLAndTheTableStaysBounded() {
        let clock = ManualClock()
        let failures = FailedSources(ttl: .seconds(10), capacity: 3, clock: clock)
        let notFound = ServeError(.notFound, "origin 404")
        failures.record(notFound, for: "a")
        #expect(failures.failure(for: "a") == notFound)
        clock.advance(by: .seconds(9))
        #expect(failures.failure(for: "a") == notFound)
        clock.advance(by: .seconds(1))
        #expect(failures.failure(for: "a") == nil)
        // The service's own failures are not the source's.
        failures.record(ServeError(.serviceUnavailable, "full"), for: "b")
        failures.record(ServeError(.internalError, "bug"), for: "c")
        #expect(failures.failure(for: "b") == nil && failures.failure(for: "c") == nil)
        // Past the capacity the oldest go first; a key recorded again counts from its latest failure.
        for key in ["d", "e", "f"] { failures.record(notFound, for: key) }
        failures.record(notFound, for: "d")
        failures.record(notFound, for: "g")
        #expect(failures.count == 3)
        #expect(failures.failure(for: "e") == nil)
        #expect(
            failures.failure(for: "d") != nil && failures.failure(for: "f") != nil && failures.failure(for: "g") != nil)
        // A TTL of 0 keeps nothing.
        let off = FailedSources(ttl: .zero, clock: clock)
        off.record(notFound, for: "a")
        #expect(off.failure(for: "a") == nil && off.count == 0)
    }

    @Test func aFailedSourceReachesItsOriginOnce() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration()) { _, client in
            for size in ["10x10", "20x20", "30x30"] {
                let response = try await client.execute(uri: "/unsafe/\(size)/\(h.url("/missing"))", method: .get)
                #expect(response.status == .notFound)
            }
            #expect(h.origin.requestCount("/missing") == 1)
            // Text where an image should be: 415 each time, one fetch.
            for _ in 0..<3 {
                #expect(
                    try await client.execute(uri: "/unsafe/10x10/\(h.url("/text"))", method: .get).status
                        == .unsupportedMediaType)
            }
            #expect(h.origin.requestCount("/text") == 1)
        }
        // Off: every retry goes to the origin.
        let again = try await ServeHarness()
        try await again.withServer(H.configuration { $0.failureTTL = 0 }) { _, client in
            for _ in 0..<3 { _ = try await client.execute(uri: "/unsafe/10x10/\(again.url("/missing"))", method: .get) }
            #expect(again.origin.requestCount("/missing") == 3)
        }
    }
}

/// Operators' controls: several keys at once, the sources the service may fetch, a request id on every answer.
@Suite struct ServeOperatorTests {
    typealias H = ServeHarness

    @Test func anyOfSeveralKeysVerifiesAndRotationNeedsNoDowntime() async throws {
        let h = try await ServeHarness()
        let path = "10x10/\(h.url("/stripes.png"))"
        let old = ThumborSignature(key: "old").sign(path)
        let new = ThumborSignature(key: "new").sign(path)
        try await h.withServer(
            H.configuration {
                $0.keys = ["new", "old"]
                $0.allowUnsafe = false
            }
        ) { _, client in
            let signedNew = try await client.execute(uri: "/\(new)/\(path)", method: .get)
            let signedOld = try await client.execute(uri: "/\(old)/\(path)", method: .get)
            #expect(signedNew.status == .ok && signedOld.status == .ok)
            let forged = ThumborSignature(key: "other").sign(path)
            let refused = try await client.execute(uri: "/\(forged)/\(path)", method: .get)
            #expect(refused.status == .badRequest && H.text(refused) == "bad signature\n")
        }
        var configuration = ServeConfiguration()
        configuration.keys = ["a", "b"]
        #expect(configuration.key == "a")
        configuration.key = "c"
        #expect(configuration.keys == ["c", "b"])
        configuration.key = nil
        #expect(configuration.keys.isEmpty)
    }

    @Test func onlyAllowedSourcesAreFetched() async throws {
        let h = try await ServeHarness()
        let patterns = ["http://127.0.0.1:\(h.origin.port)/stripes", "*.example.com"]
        try await h.withServer(H.configuration { $0.allowedSources = patterns }) { _, client in
            #expect(try await client.execute(uri: "/unsafe/10x10/\(h.url("/stripes.png"))", method: .get).status == .ok)
            // Refused before any connection: the origin never sees it.
            let refused = try await client.execute(uri: "/unsafe/10x10/\(h.url("/exif.jpg"))", method: .get)
            #expect(refused.status == .forbidden)
            #expect(H.text(refused) == "this source is not allowed\n")
            #expect(h.origin.requestCount("/exif.jpg") == 0)
            let mark = try await client.execute(
                uri: "/unsafe/filters:watermark(\(h.url("/icc.jpg")),0,0,0)/\(h.url("/stripes.png"))", method: .get)
            #expect(mark.status == .forbidden)
            #expect(h.origin.requestCount("/icc.jpg") == 0)
        }
        let policy = SourcePolicy(patterns: patterns + ["https://CDN.example.org/img/"])
        let cases: [(String, Bool)] = [
            ("http://127.0.0.1:\(h.origin.port)/stripes.png", true),
            ("http://127.0.0.1:\(h.origin.port)/Stripes.png", false),
            ("http://127.0.0.1:1/stripes.png", false),
            ("http://a.example.com/x.png", true), ("https://a.b.example.com/x.png", true),
            ("http://example.com/x.png", false), ("http://evil-example.com/x.png", false),
            ("http://a.example.com.evil.net/x.png", false),
            ("https://cdn.example.org/img/a.png", true), ("https://cdn.example.org/imgs/a.png", false),
            ("https://cdn.example.org/other/a.png", false), ("https://cdn.example.org.evil.net/img/a.png", false),
        ]
        for (text, allowed) in cases { #expect(policy.allows(URL(string: text)!) == allowed, "\(text)") }
        #expect(SourcePolicy(patterns: []).allows(URL(string: "http://anything.net/a.png")!))
    }

    @Test func everyAnswerCarriesARequestID() async throws {
        let h = try await ServeHarness()
        let log = CapturingLogHandler.Store()
        try await h.withServer(H.configuration(), logger: CapturingLogHandler.logger(log)) { _, client in
            let given = try await client.execute(
                uri: "/unsafe/10x10/\(h.url("/stripes.png"))", method: .get,
                headers: [RequestID.field: "abc-123"])
            #expect(given.headers[RequestID.field] == "abc-123")
            let made = try await client.execute(uri: "/unsafe/10x10/\(h.url("/missing"))", method: .get)
            let id = try #require(made.headers[RequestID.field])
            #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
            // A value that is not one short line of visible characters is replaced.
            let odd = try await client.execute(uri: "/healthz", method: .get, headers: [RequestID.field: "a b"])
            #expect(odd.headers[RequestID.field] != "a b" && odd.headers[RequestID.field]?.count == 32)
            #expect(log.all.map { $0.metadata["request_id"] } == ["abc-123", id, odd.headers[RequestID.field]])
            // The failure's detail is in the log line, not in the answer.
            #expect(log.all[1].metadata["error"] == "2001: unacceptable status code 404")
        }
    }

    /// Made ids (no system call each): 32 lowercase hexadecimal digits, the process's half shared, never repeated.
    @Test func madeRequestIDsNeverRepeat() {
        let ids = (0..<100_000).map { _ in RequestID.make() }
        #expect(Set(ids).count == 100_000)
        #expect(
            ids.allSatisfy { $0.utf8.count == 32 && $0.utf8.allSatisfy { Array("0123456789abcdef".utf8).contains($0) } }
        )
        #expect(Set(ids.map { $0.prefix(16) }).count == 1)
    }
}

/// `--file-root`: sources by path under a folder, and no way out of it.
@Suite struct ServeFileRootTests {
    typealias H = ServeHarness

    @Test func pathsResolveInsideTheFolderOnly() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("wi-serve-files-\(UUID().uuidString)")
        let root = base.appendingPathComponent("root")
        let outside = base.appendingPathComponent("outside.png")
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("sub dir"), withIntermediateDirectories: true)
        let png = try H.coders.encode(try H.solid(width: 40, height: 20, H.green), as: .png, options: EncodeOptions())
        try png.write(to: root.appendingPathComponent("a.png"))
        try png.write(to: root.appendingPathComponent("sub dir/b.png"))
        try png.write(to: outside)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("out.png").path,
            withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("in.png").path,
            withDestinationPath: root.appendingPathComponent("a.png").path)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("up").path,
            withDestinationPath: base.path)
        let h = try await ServeHarness()
        try await h.withServer(H.configuration { $0.fileRoot = root.path }) { _, client in
            for path in ["a.png", "sub%20dir/b.png", "in.png"] {
                let response = try await client.execute(uri: "/unsafe/20x10/\(path)", method: .get)
                #expect(response.status == .ok, "\(path)")
                #expect(try H.image(response).size == PixelSize(width: 20, height: 10), "\(path)")
            }
            let hostile: [(String, HTTPResponse.Status)] = [
                ("../outside.png", .badRequest), ("%2E%2E/outside.png", .badRequest),
                ("sub%20dir/../../outside.png", .badRequest),
                ("out.png", .badRequest), ("up/outside.png", .badRequest), ("%2Fetc%2Fpasswd", .badRequest),
                ("./a.png", .badRequest), ("a.png%00.jpg", .badRequest), ("missing.png", .notFound),
                ("sub%20dir", .notFound),
            ]
            for (path, status) in hostile {
                let response = try await client.execute(uri: "/unsafe/20x10/\(path)", method: .get)
                #expect(response.status == status, "\(path)")
            }
            // http(s) sources still go to their origin.
            #expect(try await client.execute(uri: "/unsafe/20x10/\(h.url("/stripes.png"))", method: .get).status == .ok)
        }
        let error = #expect(throws: ImageError.self) { try FileRoot(outside.path) }
        #expect(error?.code == .invalidArgument)
    }
}

/// The request's span: its id and status as attributes, the pipeline's spans its children.
@Suite struct ServeTracingTests {
    typealias H = ServeHarness

    @Test func eachImageRequestHasASpanParentOfThePipelines() async throws {
        let h = try await ServeHarness()
        let tracer = InMemoryTracer()
        let server = try await ImageServer(configuration: H.configuration(), tracer: tracer)
        try await server.makeApplication().test(.router) { client in
            let response = try await client.execute(
                uri: "/unsafe/10x10/\(h.url("/stripes.png"))", method: .get,
                headers: [RequestID.field: "trace-me"])
            #expect(response.status == .ok)
        }
        await server.manager.shutdown()
        await h.origin.stop()
        let request = try #require(tracer.finishedSpans.first { $0.operationName == "wi.serve.request" })
        #expect(request.attributes.get("request_id")?.toSpanAttribute() == .string("trace-me"))
        #expect(request.attributes.get("http.status_code")?.toSpanAttribute() == .int64(200))
        #expect(
            request.attributes.get("http.target")?.toSpanAttribute()
                == .string("/unsafe/10x10/\(h.url("/stripes.png"))"))
        let load = try #require(tracer.finishedSpans.first { $0.operationName == "webimage.load" })
        #expect(load.parentSpanID == request.spanID)
    }
}

/// The disk cache is bounded by `--cache-size`: three quarters for originals, one for answers.
@Suite struct ServeDiskBoundTests {
    @Test func theDiskTiersShareTheCacheSize() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wi-serve-bound-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = ServeHarness.configuration {
            $0.useCache = true
            $0.cacheDirectory = folder.path
            $0.cacheSize = 4 << 20
        }
        let server = try await ImageServer(configuration: configuration)
        let tiered = try #require(server.manager.cache as? TieredImageCache)
        let images = try #require(tiered.dataTiers.first as? DiskCache)
        #expect(images.configuration.sizeLimit == 3 << 20)
        let variants = try #require(server.service.parts.variants?.tiers.last as? DiskCache)
        #expect(variants.configuration.sizeLimit == 1 << 20)
        #expect(ServeConfiguration().cacheSize == 10 << 30)
        await server.manager.shutdown()
    }
}

/// `--proxy`: origin fetches go through the proxy, and the address policy still refuses private destinations.
@Suite struct ServeProxyTests {
    typealias H = ServeHarness

    @Test func sourcesGoThroughTheProxyUnderThePolicy() async throws {
        let h = try await ServeHarness()
        // The harness's origin stands in for the proxy too (it answers absolute-form requests by their path).
        let proxy = "http://127.0.0.1:\(h.origin.port)"
        try await h.withServer(H.configuration { $0.proxy = proxy }) { _, client in
            // 127.0.0.1 is an --allow-host: allowed, fetched through the proxy.
            let allowed = try await client.execute(uri: "/unsafe/10x10/\(h.url("/stripes.png"))", method: .get)
            #expect(allowed.status == .ok)
            #expect(h.origin.requests("/stripes.png").map(\.target) == [h.url("/stripes.png")])
            // A private address no --allow-host names: refused before the proxy hears of it.
            let refused = try await client.execute(uri: "/unsafe/10x10/http://10.9.8.7/stripes.png", method: .get)
            #expect(refused.status == .forbidden)
            #expect(h.origin.requestCount("/stripes.png") == 1)
        }
        var bad = ServeConfiguration()
        bad.proxy = "socks5://proxy:1080"
        #expect(throws: ImageError.self) { try bad.validate() }
    }
}

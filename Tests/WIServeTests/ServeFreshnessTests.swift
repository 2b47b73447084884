import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WebImage
import WITestServer
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// Sources follow their origin's HTTP caching: a stored answer lives as long as its source is fresh, a stale one
/// is rendered again after the source is revalidated, a changed source changes the answer and its ETag, and the
/// answers' validators derive from the source's.
@Suite(.serialized) struct ServeFreshnessTests {
    typealias H = ServeHarness

    static func cached(_ adjust: @escaping (inout ServeConfiguration) -> Void) -> (ServeConfiguration, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wi-serve-fresh-\(UUID().uuidString)")
        let configuration = H.configuration {
            $0.useCache = true
            $0.cacheDirectory = folder.path
            adjust(&$0)
        }
        return (configuration, folder)
    }

    static func png(_ color: RGBAColor) throws -> Data {
        try H.coders.encode(try H.solid(width: 40, height: 20, color), as: .png, options: EncodeOptions())
    }

    @Test func aStaleAnswerIsRenderedAgainAndAChangedSourceChangesIt() async throws {
        let h = try await ServeHarness()
        let red = try Self.png(H.red)
        let blue = try Self.png(H.blue)
        h.origin.route("/fresh.png") { .cacheable(red, etag: "\"v1\"", cacheControl: "max-age=0", request: $0) }
        let (configuration, folder) = Self.cached { $0.originCachePolicy = .respect }
        defer { try? FileManager.default.removeItem(at: folder) }
        try await h.withServer(configuration) { server, client in
            let uri = "/unsafe/20x10/\(h.url("/fresh.png"))"
            let first = try await client.execute(uri: uri, method: .get)
            #expect(first.status == .ok)
            #expect(try H.image(first).pixels.color(x: 5, y: 5).isClose(to: H.red))
            let etag = try #require(first.headers[.eTag])
            // The source and its validators are stored in the background, after the answer: wait for that.
            await server.manager.waitUntilIdle()
            // Stale at once (max-age=0): rendered again after a revalidation the origin answers 304; same ETag.
            let second = try await client.execute(uri: uri, method: .get)
            #expect(second.status == .ok && second.headers[.eTag] == etag)
            let conditional = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag])
            #expect(conditional.status == .notModified)
            #expect(h.origin.exchanges("/fresh.png").map(\.status) == [200, 304, 304])
            // The image behind the URL changes: the next answer has it, with another ETag.
            h.origin.route("/fresh.png") { .cacheable(blue, etag: "\"v2\"", cacheControl: "max-age=0", request: $0) }
            let changed = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag])
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] != etag)
            #expect(try H.image(changed).pixels.color(x: 5, y: 5).isClose(to: H.blue))
        }
    }

    @Test func aFreshAnswerNeedsNeitherTheOriginNorARender() async throws {
        let h = try await ServeHarness()
        let red = try Self.png(H.red)
        let modified = "Sun, 06 Nov 1994 08:49:37 GMT"
        h.origin.route("/fresh.png") {
            .cacheable(red, etag: "\"v1\"", lastModified: modified, cacheControl: "max-age=3600", request: $0)
        }
        let (configuration, folder) = Self.cached { _ in }
        defer { try? FileManager.default.removeItem(at: folder) }
        try await h.withServer(configuration) { server, client in
            let uri = "/unsafe/20x10/\(h.url("/fresh.png"))"
            let first = try await client.execute(uri: uri, method: .get)
            #expect(first.headers[.lastModified] == modified)
            let etag = try #require(first.headers[.eTag])
            let again = try await client.execute(uri: uri, method: .get)
            #expect(again.status == .ok && again.headers[.eTag] == etag)
            let byETag = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag])
            let byDate = try await client.execute(uri: uri, method: .get, headers: [.ifModifiedSince: modified])
            let older = try await client.execute(
                uri: uri, method: .get, headers: [.ifModifiedSince: "Sat, 05 Nov 1994 08:49:37 GMT"])
            #expect(byETag.status == .notModified && byDate.status == .notModified && older.status == .ok)
            #expect(h.origin.requestCount("/fresh.png") == 1)
            #expect(server.service.renders.load(ordering: .relaxed) == 1)
        }
    }

    @Test func staleWhileRevalidateServesTheOldAnswerOnceThenTheNewOne() async throws {
        let h = try await ServeHarness()
        let red = try Self.png(H.red)
        let blue = try Self.png(H.blue)
        h.origin.route("/fresh.png") { .cacheable(red, etag: "\"v1\"", cacheControl: "max-age=0", request: $0) }
        let (configuration, folder) = Self.cached { _ in }  // the default: stale-while-revalidate, a day
        defer { try? FileManager.default.removeItem(at: folder) }
        try await h.withServer(configuration) { server, client in
            let uri = "/unsafe/20x10/\(h.url("/fresh.png"))"
            #expect(
                try H.image(try await client.execute(uri: uri, method: .get)).pixels.color(x: 5, y: 5).isClose(
                    to: H.red))
            // The source is stored in the background: once that is done (not before: a request in between would
            // miss the cache and fetch the new image, as CI once saw on a busy machine), the origin changes.
            await server.manager.waitUntilIdle()
            h.origin.route("/fresh.png") { .cacheable(blue, etag: "\"v2\"", cacheControl: "max-age=0", request: $0) }
            // The stale source is used at once while it is revalidated behind the answer...
            #expect(
                try H.image(try await client.execute(uri: uri, method: .get)).pixels.color(x: 5, y: 5).isClose(
                    to: H.red))
            // ...and once the revalidation brought the new image, answers have it (at most a few requests later:
            // each one waits for nothing but its own render).
            var answers = 0
            var latest = H.red
            while latest != H.blue && answers < 1_000 {
                latest = try H.image(try await client.execute(uri: uri, method: .get)).pixels.color(x: 5, y: 5)
                answers += 1
                if latest != H.blue { await Task.yield() }
            }
            #expect(latest == H.blue)
            #expect(h.origin.exchanges("/fresh.png").map(\.status).prefix(2) == [200, 200])
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage
import WITestServer
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// The service inside an app's own Hummingbird server (a live one, on a port): thumbor URLs under a prefix and an
/// app's avatar route, with the app's own `ImageManager`, beside the app's other routes.
@Suite(.serialized) struct MountedRoutesTests {
    typealias H = ServeHarness

    /// An app's manager: a memory cache, a curl loader, every coder.
    static func appManager() throws -> ImageManager {
        ImageManager(
            cache: TieredImageCache(memory: MemoryCache(), dataTiers: [], coders: H.coders),
            loader: try CurlImageLoader(), coders: H.coders)
    }

    /// Runs `body` against a live app (a port, a real HTTP client) unless `testing` says otherwise.
    static func withApp(
        _ h: ServeHarness, _ configuration: ServeConfiguration, testing: TestingSetup = .live,
        _ body: @Sendable (ImageService, any TestClientProtocol) async throws -> Void
    ) async throws {
        let manager = try appManager()
        let service = try await ImageService(configuration: configuration, manager: manager)
        let router = Router()
        router.get("hello") { _, _ in "hello\n" }
        router.addThumborRoutes(at: "/thumbs", service: service)
        let origin = h.url("")
        router.addImageRoute("/avatars/:id/:size", service: service) { _, context in
            let id = try context.parameters.require("id")
            guard id == "stripes" || id == "broken" else { throw HTTPError(.notFound, message: "no avatar \(id)") }
            let size = try context.parameters.require("size", as: Int.self)
            guard (1...512).contains(size) else { throw ImageError(.invalidArgument, "size must be in 1...512") }
            return ImageRoute(
                source: URL(string: "\(origin)/\(id == "broken" ? "text" : "stripes.png")")!,
                transformer: try .resize(width: size, height: size / 2), format: .webp)
        }
        let app = Application(router: router)
        do {
            try await app.test(testing) { client in try await body(service, client) }
        } catch {
            await service.shutdown()
            await manager.shutdown()
            await h.origin.stop()
            throw error
        }
        await service.shutdown()
        // The app's manager is the app's: still working after the service is shut down.
        let stillLoads = try await manager.loadImage(with: URL(string: h.url("/stripes.png"))!)
        #expect(stillLoads.image.size == PixelSize(width: 400, height: 200))
        await manager.shutdown()
        await h.origin.stop()
    }

    @Test func thumborURLsUnderAPrefixBesideTheAppsRoutes() async throws {
        let h = try await ServeHarness()
        try await Self.withApp(h, H.configuration()) { _, client in
            let hello = try await client.execute(uri: "/hello", method: .get)
            #expect(hello.status == .ok && H.text(hello) == "hello\n")
            let thumb = try await client.execute(uri: "/thumbs/unsafe/40x20/\(h.url("/stripes.png"))", method: .get)
            #expect(thumb.status == .ok)
            #expect(thumb.headers[.contentType] == "image/png")
            let image = try H.image(thumb)
            #expect(image.size == PixelSize(width: 40, height: 20))
            #expect(
                image.pixels.color(x: 2, y: 10).isClose(to: H.red)
                    && image.pixels.color(x: 20, y: 10).isClose(to: H.green))
            let etag = try #require(thumb.headers[.eTag])
            let again = try await client.execute(
                uri: "/thumbs/unsafe/40x20/\(h.url("/stripes.png"))", method: .get,
                headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            let head = try await client.execute(uri: "/thumbs/unsafe/40x20/\(h.url("/stripes.png"))", method: .head)
            #expect(head.status == .ok && head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == thumb.headers[.contentLength])
            let bad = try await client.execute(uri: "/thumbs/unsafe/99999999x1/img.png", method: .get)
            #expect(bad.status == .badRequest)
            #expect(H.text(bad) == "size 99999999x1 is out of range (at most 1048576)\n")
            // Outside the prefix, the app's router answers (its own 404).
            let outside = try await client.execute(uri: "/unsafe/40x20/\(h.url("/stripes.png"))", method: .get)
            #expect(outside.status == .notFound)
        }
    }

    @Test func anAppsOwnImageRouteIsCachedAndValidated() async throws {
        let h = try await ServeHarness()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wi-mounted-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = H.configuration {
            $0.useCache = true
            $0.cacheDirectory = folder.path
        }
        try await Self.withApp(h, configuration) { service, client in
            let first = try await client.execute(uri: "/avatars/stripes/64", method: .get)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "image/webp")
            let image = try H.image(first)
            #expect(image.format == .webp && image.size == PixelSize(width: 64, height: 32))
            #expect(image.pixels.color(x: 60, y: 16).isClose(to: H.blue))
            let second = try await client.execute(uri: "/avatars/stripes/64", method: .get)
            #expect(H.data(second) == H.data(first))
            #expect(service.renders.load(ordering: .relaxed) == 1)  // the second came from the variant cache
            let etag = try #require(first.headers[.eTag])
            let revalidated = try await client.execute(
                uri: "/avatars/stripes/64", method: .get, headers: [.ifNoneMatch: etag])
            #expect(revalidated.status == .notModified)
            let other = try await client.execute(uri: "/avatars/stripes/32", method: .get)
            #expect(try H.image(other).size == PixelSize(width: 32, height: 16))
            #expect(service.renders.load(ordering: .relaxed) == 2)
            // The app's refusals, and the pipeline's: statuses and one-line public reasons.
            let missing = try await client.execute(uri: "/avatars/nobody/64", method: .get)
            #expect(missing.status == .notFound)
            let tooLarge = try await client.execute(uri: "/avatars/stripes/999", method: .get)
            #expect(tooLarge.status == .badRequest && H.text(tooLarge) == "size must be in 1...512\n")
            let notAnImage = try await client.execute(uri: "/avatars/broken/64", method: .get)
            #expect(notAnImage.status == .unsupportedMediaType && H.text(notAnImage) == "the source is not an image\n")
        }
    }

    @Test func theGateIsTheServices() async throws {
        let h = try await ServeHarness()
        let configuration = H.configuration {
            $0.concurrency = 1
            $0.queue = 0
        }
        // In process: the live test client sends one request at a time on its one connection.
        try await Self.withApp(h, configuration, testing: .router) { service, client in
            // The one slot held by a request whose origin waits: the next is refused at once, from either route.
            async let held = client.execute(uri: "/thumbs/unsafe/10x10/\(h.url("/gated.png"))", method: .get)
            for await _ in h.arrivals { break }
            let refused = try await client.execute(uri: "/avatars/stripes/64", method: .get)
            #expect(refused.status == .serviceUnavailable && refused.headers[.retryAfter] == "1")
            #expect(H.text(refused) == "too many requests: 1 working and 0 waiting\n")
            h.gate.open()
            #expect(try await held.status == .ok)
            #expect(service.gate.counts == (0, 0))
        }
    }
}

/// An app's route whose source is a file: read inside `--file-root` only.
@Suite struct ImageRouteFileTests {
    @Test func filesAreReadInsideTheFileRootOnly() async throws {
        let root = Fixtures.url("png")
        let service = try await ImageService(configuration: ServeHarness.configuration { $0.fileRoot = root.path })
        let inside = await service.respond(
            to: ServeRequest(path: "/avatar"),
            route: ImageRoute(
                source: root.appendingPathComponent("iccp-displayp3.png"),
                transformer: try .resize(width: 16, height: 8), format: .png))
        #expect(inside.status == 200)
        #expect(
            try ServeHarness.coders.decode(inside.body, options: DecodeOptions()).size
                == PixelSize(width: 16, height: 8))
        for outside in ["/etc/passwd", root.path + "/../jpeg/hat-420.jpg"] {
            let answer = await service.respond(
                to: ServeRequest(path: "/avatar"),
                route: ImageRoute(source: URL(fileURLWithPath: outside)))
            #expect(answer.status == (outside == "/etc/passwd" ? 403 : 400), "\(outside)")
        }
        await service.shutdown()
        // Without --file-root, the service's own pipeline reads no file.
        let closed = try await ImageService(configuration: ServeHarness.configuration())
        let refused = await closed.respond(
            to: ServeRequest(path: "/avatar"),
            route: ImageRoute(source: root.appendingPathComponent("iccp-displayp3.png")))
        #expect(
            refused.status == 403 && String(decoding: refused.body, as: UTF8.self) == "this source is not allowed\n")
        await closed.shutdown()
    }
}

/// An app route's values are checked as a thumbor URL's: each bad one a 400 naming it, before any load.
@Suite struct ImageRouteValueTests {
    @Test func badValuesAreBadRequests() async throws {
        let h = try await ServeHarness()
        let service = try await ImageService(configuration: ServeHarness.configuration { $0.maxPixels = 10_000 })
        let source = URL(string: h.url("/stripes.png"))!
        let cases: [(ImageRoute, String)] = [
            (ImageRoute(source: source, quality: 0), "quality must be in 1...100, got 0\n"),
            (ImageRoute(source: source, quality: 101), "quality must be in 1...100, got 101\n"),
            (
                ImageRoute(source: source, thumbnailSize: PixelSize(width: 0, height: 5)),
                "thumbnail size 0x5 must be at least 1x1\n"
            ),
            (
                ImageRoute(source: source, thumbnailSize: PixelSize(width: 200, height: 200)),
                "200x200 exceeds the pixel limit of 10000\n"
            ),
        ]
        for (route, reason) in cases {
            let answer = await service.respond(to: ServeRequest(path: "/avatar"), route: route)
            #expect(answer.status == 400 && String(decoding: answer.body, as: UTF8.self) == reason)
        }
        #expect(h.origin.requestCount("/stripes.png") == 0)
        await service.shutdown()
        await h.origin.stop()
    }
}

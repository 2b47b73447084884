import Foundation
import Testing
import Vapor
import VaporTesting
import WebImage
import WITestServer
import WITestSupport
@testable import WIServeCore
@testable import WIVapor

/// The service inside an app's own Vapor server (started on a port for each request, a real HTTP client): thumbor
/// URLs under a prefix and an app's avatar route, with the app's own `ImageManager`, beside the app's other routes.
@Suite(.serialized) struct VaporRoutesTests {
    static let coders = WebImage.makeCoders()

    /// The origin: /stripes.png (`ServeTestImages.stripes()`) and /text (text/html).
    static func origin() async throws -> TestHTTPServer {
        let origin = try await TestHTTPServer.start()
        let png = try coders.encode(ServeTestImages.stripes(), as: .png, options: EncodeOptions())
        origin.route("/stripes.png") { _ in TestResponse(body: png, contentType: "image/png") }
        origin.route("/text") { _ in TestResponse(body: Data("<html></html>".utf8), contentType: "text/html") }
        return origin
    }

    /// Unsafe URLs and URLs signed with the key "k", the origin's host allowed.
    static func configuration(cacheDirectory: String? = nil) -> ServeConfiguration {
        var configuration = ServeConfiguration()
        configuration.allowUnsafe = true
        configuration.key = "k"
        configuration.allowedHosts = ["127.0.0.1"]
        configuration.useCache = cacheDirectory != nil
        if let cacheDirectory { configuration.cacheDirectory = cacheDirectory }
        return configuration
    }

    /// Runs `body` against an app with its own manager (a memory cache, a curl loader, every coder), its `/hello`
    /// route, thumbor URLs at `/thumbs` and `/api/v1/thumbs`, and `/avatars/:id/:size`; then shuts the service
    /// down and checks the app's manager still loads.
    static func withApp(
        _ configuration: ServeConfiguration,
        _ body: (ImageService, any TestingApplicationTester, TestHTTPServer) async throws -> Void
    )
        async throws
    {
        let origin = try await origin()
        let manager = ImageManager(
            cache: TieredImageCache(memory: MemoryCache(), dataTiers: [], coders: coders),
            loader: try CurlImageLoader(), coders: coders)
        let service = try await ImageService(configuration: configuration, manager: manager)
        let app = try await Application.make(.testing)
        app.logger.logLevel = .warning
        app.get("hello") { _ in "hello\n" }
        app.addThumborRoutes(at: "thumbs", service: service)
        app.grouped("api").addThumborRoutes(at: "v1", "thumbs", service: service)
        // Avatars by id: the stripes, and a text page that is no image.
        let sources = ["stripes": origin.url("/stripes.png"), "broken": origin.url("/text")]
        app.addImageRoute("avatars", ":id", ":size", service: service) { req in
            let id = try req.parameters.require("id")
            let size = try req.parameters.require("size", as: Int.self)
            guard let source = sources[id] else { throw Abort(.notFound, reason: "no avatar \(id)") }
            guard (1...512).contains(size) else { throw ImageError(.invalidArgument, "size must be in 1...512") }
            return ImageRoute(source: source, transformer: try .resize(width: size, height: size / 2), format: .webp)
        }
        do {
            try await body(service, try app.testing(method: .running(hostname: "127.0.0.1", port: 0)), origin)
        } catch {
            try? await app.asyncShutdown()
            await service.shutdown()
            await manager.shutdown()
            await origin.stop()
            throw error
        }
        try await app.asyncShutdown()
        await service.shutdown()
        // The app's manager is the app's: still working after the service is shut down.
        let stillLoads = try await manager.loadImage(with: origin.url("/stripes.png"))
        #expect(stillLoads.image.size == PixelSize(width: 400, height: 200))
        await manager.shutdown()
        await origin.stop()
    }

    static func data(_ response: TestingHTTPResponse) -> Data { Data(response.body.readableBytesView) }

    static func text(_ response: TestingHTTPResponse) -> String { String(decoding: data(response), as: UTF8.self) }

    static func image(_ response: TestingHTTPResponse) throws -> Image {
        try coders.decode(data(response), options: DecodeOptions())
    }

    @Test func thumborURLsUnderAPrefixBesideTheAppsRoutes() async throws {
        try await Self.withApp(Self.configuration()) { _, app, origin in
            let hello = try await app.sendRequest(.GET, "/hello")
            #expect(hello.status == .ok && Self.text(hello) == "hello\n")
            let path = "/thumbs/unsafe/40x20/http://127.0.0.1:\(origin.port)/stripes.png"
            let thumb = try await app.sendRequest(.GET, path)
            #expect(thumb.status == .ok)
            #expect(thumb.headers.first(name: .contentType) == "image/png")
            let image = try Self.image(thumb)
            #expect(image.size == PixelSize(width: 40, height: 20))
            #expect(image.pixels.color(x: 2, y: 10).isClose(to: ServeTestImages.red))
            #expect(image.pixels.color(x: 20, y: 10).isClose(to: ServeTestImages.green))
            #expect(image.pixels.color(x: 37, y: 10).isClose(to: ServeTestImages.blue))
            #expect(thumb.headers.first(name: .contentLength) == String(Self.data(thumb).count))
            let etag = try #require(thumb.headers.first(name: .eTag))
            let again = try await app.sendRequest(.GET, path, headers: ["If-None-Match": etag])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            #expect(again.headers.first(name: .eTag) == etag)
            let head = try await app.sendRequest(.HEAD, path)
            #expect(head.status == .ok && head.body.readableBytes == 0)
            #expect(head.headers.first(name: .contentLength) == thumb.headers.first(name: .contentLength))
            #expect(head.headers.first(name: .eTag) == etag)
            let bad = try await app.sendRequest(.GET, "/thumbs/unsafe/99999999x1/img.png")
            #expect(bad.status == .badRequest)
            #expect(bad.headers.first(name: .contentType) == "text/plain; charset=utf-8")
            #expect(Self.text(bad) == "size 99999999x1 is out of range (at most 1048576)\n")
            // Outside the prefix, the app's router answers (its own 404).
            let outside = try await app.sendRequest(.GET, "/unsafe/40x20/http://127.0.0.1:\(origin.port)/stripes.png")
            #expect(outside.status == .notFound)
        }
    }

    /// A signed URL under a group's prefix, its image URL with a percent escape and a query: the signature holds
    /// only when the service gets the path after the prefix byte for byte (`//` kept, nothing decoded).
    @Test func theServiceGetsThePathAsSent() async throws {
        try await Self.withApp(Self.configuration()) { _, app, origin in
            let signed = "40x20/http://127.0.0.1:\(origin.port)/stripes%2Epng?v=1"
            let signature = ThumborSignature(key: "k").sign(signed)
            let thumb = try await app.sendRequest(.GET, "/api/v1/thumbs/\(signature)/\(signed)")
            #expect(thumb.status == .ok)
            #expect(try Self.image(thumb).size == PixelSize(width: 40, height: 20))
            let decoded = signed.replacingOccurrences(of: "%2E", with: ".")
            let forged = try await app.sendRequest(.GET, "/api/v1/thumbs/\(signature)/\(decoded)")
            // A bad signature: thumbor's 400 (403 with --strict).
            #expect(forged.status == .badRequest && Self.text(forged) == "bad signature\n")
            let requests = origin.requests("/stripes.png")
            #expect(requests.count == 1 && requests.first?.query == "v=1")
        }
    }

    @Test func anAppsOwnImageRouteIsCachedAndValidated() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wi-vapor-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.withApp(Self.configuration(cacheDirectory: folder.path)) { service, app, _ in
            let first = try await app.sendRequest(.GET, "/avatars/stripes/64")
            #expect(first.status == .ok)
            #expect(first.headers.first(name: .contentType) == "image/webp")
            let image = try Self.image(first)
            #expect(image.format == .webp && image.size == PixelSize(width: 64, height: 32))
            #expect(image.pixels.color(x: 4, y: 16).isClose(to: ServeTestImages.red))
            #expect(image.pixels.color(x: 60, y: 16).isClose(to: ServeTestImages.blue))
            let second = try await app.sendRequest(.GET, "/avatars/stripes/64")
            #expect(Self.data(second) == Self.data(first))
            #expect(service.renders.load(ordering: .relaxed) == 1)  // the second came from the variant cache
            let etag = try #require(first.headers.first(name: .eTag))
            let revalidated = try await app.sendRequest(.GET, "/avatars/stripes/64", headers: ["If-None-Match": etag])
            #expect(revalidated.status == .notModified && revalidated.body.readableBytes == 0)
            let head = try await app.sendRequest(.HEAD, "/avatars/stripes/64")
            #expect(head.status == .ok && head.body.readableBytes == 0)
            #expect(head.headers.first(name: .contentLength) == String(Self.data(first).count))
            let other = try await app.sendRequest(.GET, "/avatars/stripes/32")
            #expect(try Self.image(other).size == PixelSize(width: 32, height: 16))
            #expect(service.renders.load(ordering: .relaxed) == 2)
            // The app's refusals (Vapor's error answers), and the pipeline's: statuses and one-line public reasons.
            let missing = try await app.sendRequest(.GET, "/avatars/nobody/64")
            #expect(missing.status == .notFound)
            #expect(try JSONDecoder().decode(VaporError.self, from: Self.data(missing)).reason == "no avatar nobody")
            let tooLarge = try await app.sendRequest(.GET, "/avatars/stripes/999")
            #expect(tooLarge.status == .badRequest && Self.text(tooLarge) == "size must be in 1...512\n")
            let notAnImage = try await app.sendRequest(.GET, "/avatars/broken/64")
            #expect(
                notAnImage.status == .unsupportedMediaType && Self.text(notAnImage) == "the source is not an image\n")
            #expect(service.renders.load(ordering: .relaxed) == 3)
        }
    }

    /// The body of Vapor's `ErrorMiddleware` answers.
    struct VaporError: Decodable {
        var error: Bool
        var reason: String
    }
}

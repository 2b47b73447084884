import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WebImage
import WITestServer
import WITestSupport

/// The example apps (Examples/HummingbirdApp, Examples/VaporApp) as their users run them: the built binary on a
/// port, its avatars from a local origin, fetched over HTTP, stopped with SIGTERM.
@Suite(.serialized) struct ExampleAppsTests {
    @Test(arguments: ["hummingbird-app", "vapor-app"])
    func servesThumbnailsBesideItsOwnPage(product: String) async throws {
        let coders = WebImage.makeCoders()
        let origin = try await TestHTTPServer.start()
        let png = try coders.encode(ServeTestImages.stripes(), as: .png, options: EncodeOptions())
        origin.route("/avatars/7.png") { _ in TestResponse(body: png, contentType: "image/png") }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("wi-\(product)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let port = try await Self.freePort()
        let app = try RunningProduct(
            product,
            environment: [
                "PORT": "\(port)", "AVATAR_SOURCE": "http://127.0.0.1:\(origin.port)/avatars/{id}.png",
                "ALLOWED_HOSTS": "127.0.0.1", "XDG_CACHE_HOME": cache.path,
            ])
        let session = URLSession(configuration: .ephemeral)
        let base = "http://127.0.0.1:\(port)"

        let page = try await Self.waitUntilServing(URL(string: base + "/")!, app: app, session: session)
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).hasPrefix("An app with thumbnails"))
        let avatar = try await Self.get(base + "/avatars/7/64", session)
        #expect(avatar.status == 200 && avatar.contentType == "image/webp")
        let square = try coders.decode(avatar.body, options: DecodeOptions())
        #expect(square.format == .webp && square.size == PixelSize(width: 64, height: 64))
        #expect(square.pixels.color(x: 32, y: 32).isClose(to: ServeTestImages.green))
        let refused = try await Self.get(base + "/avatars/7/9", session)
        #expect(refused.status == 400)
        let thumb = try await Self.get(
            base + "/thumbs/unsafe/40x20/http://127.0.0.1:\(origin.port)/avatars/7.png", session)
        #expect(thumb.status == 200 && thumb.contentType == "image/png")
        let image = try coders.decode(thumb.body, options: DecodeOptions())
        #expect(image.size == PixelSize(width: 40, height: 20))
        #expect(image.pixels.color(x: 2, y: 10).isClose(to: ServeTestImages.red))
        // Each answer loaded its source once; the avatar again comes from the service's variant cache.
        #expect(origin.requestCount("/avatars/7.png") == 2)
        let again = try await Self.get(base + "/avatars/7/64", session)
        #expect(again.status == 200 && again.body == avatar.body)
        #expect(origin.requestCount("/avatars/7.png") == 2)

        session.invalidateAndCancel()
        let status = await app.stop()
        #expect(status == 0, "\(product) exited with \(String(describing: status)): \(app.log)")
        await origin.stop()
    }

    /// A status, a Content-Type and a body.
    struct Answer {
        var status: Int
        var contentType: String?
        var body: Data
    }

    static func get(_ address: String, _ session: URLSession) async throws -> Answer {
        let (body, response) = try await session.data(from: URL(string: address)!)
        let http = try #require(response as? HTTPURLResponse)
        return Answer(status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"), body: body)
    }

    /// GETs `url` until the app answers (it is listening), for at most a minute; fails when the app exits first.
    static func waitUntilServing(_ url: URL, app: RunningProduct, session: URLSession) async throws -> Answer {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            if let answer = try? await get(url.absoluteString, session) { return answer }
            guard app.isRunning, ContinuousClock.now < deadline else {
                Issue.record("the app never answered \(url): \(app.log)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// A port nothing listens on: one the system gave a listener that is closed again.
    static func freePort() async throws -> Int {
        let probe = try await TestHTTPServer.start()
        await probe.stop()
        return probe.port
    }
}

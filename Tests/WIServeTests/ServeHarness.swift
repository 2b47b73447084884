import Foundation
import HTTPTypes
import Hummingbird
import Logging
import HummingbirdTesting
import Synchronization
import Testing
import WebImage
import WITestServer
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// A loopback origin with the test images, and a service over it driven through HummingbirdTesting's router
/// client (no socket between the client and the service; the service's loader really fetches from the origin).
struct ServeHarness {
    static let red = ServeTestImages.red
    static let green = ServeTestImages.green
    static let blue = ServeTestImages.blue

    /// 400x200: columns 0..<100 red, 100..<300 green, 300..<400 blue, opaque.
    static func stripes() throws -> Image { try ServeTestImages.stripes() }

    static let coders = WebImage.makeCoders()

    /// A `width` x `height` image of one opaque colour.
    static func solid(width: Int, height: Int, _ color: RGBAColor) throws -> Image {
        try ServeTestImages.solid(width: width, height: height, color)
    }

    /// The origin: /stripes.png, /stripes.jpg, /exif.jpg (EXIF), /icc.jpg (an ICC profile),
    /// /photo.jpg (a camera photo: EXIF with GPS, Artist and Copyright, XMP, a Display P3 profile), /anim.gif (animated), /text (text/html),
    /// /missing (404), /redirect-metadata (to 169.254.169.254), /gated.png (held until `gate` opens; each request
    /// reported on `arrivals`).
    let origin: TestHTTPServer
    let gate = TestGate()
    let arrivals: AsyncStream<Void>
    private let arrived: AsyncStream<Void>.Continuation

    init() async throws {
        origin = try await TestHTTPServer.start()
        (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
        let png = try Self.coders.encode(Self.stripes(), as: .png, options: EncodeOptions())
        let jpeg = try Self.coders.encode(Self.stripes(), as: .jpeg, options: EncodeOptions(quality: 0.95))
        let exif = try Data(contentsOf: Fixtures.url("jpeg-orientation/Landscape_1.jpg"))
        let gif = try Data(contentsOf: Fixtures.url("gif/animated-red-blue.gif"))
        let icc = try Data(contentsOf: Fixtures.url("jpeg/jpg-srgb-icc.jpg"))
        let photo = try Data(contentsOf: Fixtures.url("attention/anemone.jpg"))
        origin.route("/photo.jpg") { _ in TestResponse(body: photo, contentType: "image/jpeg") }
        origin.route("/stripes.png") { _ in TestResponse(body: png, contentType: "image/png") }
        origin.route("/stripes.jpg") { _ in TestResponse(body: jpeg, contentType: "image/jpeg") }
        origin.route("/exif.jpg") { _ in TestResponse(body: exif, contentType: "image/jpeg") }
        origin.route("/anim.gif") { _ in TestResponse(body: gif, contentType: "image/gif") }
        origin.route("/icc.jpg") { _ in TestResponse(body: icc, contentType: "image/jpeg") }
        origin.route("/text") { _ in TestResponse(body: Data("<html></html>".utf8), contentType: "text/html") }
        origin.route("/redirect-metadata") { _ in .redirect(to: "http://169.254.169.254/latest/meta-data") }
        let gate = gate
        let arrived = arrived
        origin.route("/gated.png") { _ in
            arrived.yield()
            var response = TestResponse(body: png, contentType: "image/png")
            response.hold = (afterBytes: 64, gate: gate)
            return response
        }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(origin.port)\(path)" }

    /// A configuration for tests: unsafe URLs, the key "k", the origin's host allowed, no caches unless asked.
    static func configuration(_ adjust: (inout ServeConfiguration) -> Void = { _ in }) -> ServeConfiguration {
        var configuration = ServeConfiguration()
        configuration.allowUnsafe = true
        configuration.key = "k"
        configuration.allowedHosts = ["127.0.0.1"]
        configuration.useCache = false
        configuration.concurrency = 4
        configuration.queue = 4
        adjust(&configuration)
        return configuration
    }

    /// Runs `body` against a server made with `configuration`, then shuts the server's manager (and, unless
    /// `keepOrigin`, the origin) down.
    func withServer(
        _ configuration: ServeConfiguration, keepOrigin: Bool = false, logger: Logger = .webImageNoOp,
        _ body: @Sendable (ImageServer, any TestClientProtocol) async throws -> Void
    ) async throws {
        let server = try await ImageServer(configuration: configuration, logger: logger)
        do {
            try await server.makeApplication().test(.router) { client in try await body(server, client) }
        } catch {
            gate.open()
            await server.manager.shutdown()
            await origin.stop()
            throw error
        }
        gate.open()
        await server.manager.shutdown()
        if !keepOrigin { await origin.stop() }
    }

    /// GET `/unsafe/<options>` for /stripes.png, decoded.
    func stripes(_ client: any TestClientProtocol, _ options: String) async throws -> Image {
        try Self.image(try await client.execute(uri: "/unsafe/\(options)\(url("/stripes.png"))", method: .get))
    }

    /// The response's body as bytes.
    static func data(_ response: HummingbirdTesting.TestResponse) -> Data { Data(response.body.readableBytesView) }

    /// The response's body as text.
    static func text(_ response: HummingbirdTesting.TestResponse) -> String { String(buffer: response.body) }

    /// The response decoded (every frame).
    static func image(_ response: HummingbirdTesting.TestResponse) throws -> Image {
        try coders.decode(data(response), options: DecodeOptions())
    }
}

/// A log handler that keeps every line it is given (level, message and the `status` metadata), for tests that
/// count access-log lines.
///
/// Thread safety: the lines are behind a `Mutex`; the handler may be used from any task.
struct CapturingLogHandler: LogHandler {
    /// A line: its level, message and status compared; the rest of its metadata kept for the tests that look.
    struct Line: Equatable, Sendable {
        let level: Logger.Level
        let message: String
        let status: String?
        var metadata: [String: String] = [:]

        static func == (lhs: Line, rhs: Line) -> Bool {
            lhs.level == rhs.level && lhs.message == rhs.message && lhs.status == rhs.status
        }
    }

    final class Store: Sendable {
        private let lines = Mutex<[Line]>([])
        var all: [Line] { lines.withLock { $0 } }
        func append(_ line: Line) { lines.withLock { $0.append(line) } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    /// A logger at info whose lines land in `store`.
    static func logger(_ store: Store) -> Logger { Logger(label: "test") { _ in CapturingLogHandler(store: store) } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        store.append(
            Line(
                level: event.level, message: event.message.description,
                status: event.metadata?["status"].map { "\($0)" },
                metadata: (event.metadata ?? [:]).mapValues { "\($0)" }))
    }
}

extension CapturingLogHandler.Line {
    /// An access-log message without its last field, the duration (which no test can know).
    var withoutDuration: String { message.split(separator: " ").dropLast().joined(separator: " ") }
}

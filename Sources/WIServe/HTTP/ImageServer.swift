@_exported public import WIServeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CoreMetrics
import HTTPTypes
import HummingbirdCore
public import Hummingbird
import Synchronization
public import Logging
import NIOCore
public import ServiceLifecycle
public import Tracing
public import UnixSignals
public import WICore
import WIServiceLifecycle

/// `wi serve`: a thumbor-compatible image service on Hummingbird over the WebImage pipeline.
///
/// `GET|HEAD /{unsafe|SIGNATURE}/[AxB:CxD/][fit-in/][-]WxH/[halign/][valign/][smart/][filters:...]/IMAGE_URL`,
/// `/healthz`, thumbor's `/healthcheck`, `/metrics` (Prometheus text). `run()` serves until SIGTERM or SIGINT, lets requests in flight
/// finish, then shuts the manager down.
///
/// ```swift
/// var configuration = ServeConfiguration()
/// configuration.key = "secret"
/// try await ImageServer(configuration: configuration).run()
/// ```
///
/// Thread safety: immutable; `makeApplication` and `run` may be called from any task.
public struct ImageServer: Sendable {
    /// What the server was made with.
    public let configuration: ServeConfiguration
    /// The pipeline's manager (its caches, loaders and pools end with `shutdown()`).
    public var manager: ImageManager { service.parts.manager }
    let service: ImageService
    let logger: Logger

    /// Builds the pipeline (caches, loaders, coders) for `configuration`; throws `.invalidArgument` for a value
    /// out of range, the disk tier's errors and `.networkError` when `--redis` cannot be reached (after shutting
    /// down what it had made). `logger` gets the access log (info) and the pipeline's warnings; `tracer` a
    /// `wi.serve.request` span per image request (its `request_id` attribute the answer's `X-Request-ID`), parent
    /// of the pipeline's `webimage.*` spans.
    public init(
        configuration: ServeConfiguration, logger: Logger = .webImageNoOp,
        tracer: any Tracer = InstrumentationSystem.tracer
    ) async throws(ImageError) {
        try await self.init(configuration: configuration, logger: logger, tracer: tracer, made: { _ in })
    }

    /// `init(configuration:logger:tracer:)`, with `made` seeing each part that needs a shutdown as it is made
    /// (tests).
    init(
        configuration: ServeConfiguration, logger: Logger, tracer: any Tracer = InstrumentationSystem.tracer,
        made: @Sendable (any ShutdownCapable) -> Void
    ) async throws(ImageError) {
        self.configuration = configuration
        self.logger = logger
        service = try await ImageService(
            configuration: configuration, metrics: ServeMetrics(), logger: logger,
            tracer: tracer, made: made)
    }

    /// The Hummingbird application (not started); `onServerRunning` gets the bound port.
    public func makeApplication(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        let router = Router(options: .autoGenerateHeadEndpoints)
        // One concern each, outermost first: the access log, the request metrics, admission (first for image
        // paths, refusals prebuilt), the thumbor answer.
        router.add(middleware: AccessLogMiddleware(logger: logger))
        router.add(middleware: RequestMetricsMiddleware(metrics: service.metrics))
        router.add(middleware: AdmissionMiddleware(service: service))
        router.add(middleware: ThumborMiddleware(service: service))
        router.get("healthz") { _, _ in "ok\n" }
        // thumbor's HEALTHCHECK_ROUTE, as load balancers configured for thumbor probe it: 200 `WORKING`, not cached.
        router.get("healthcheck") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-cache"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "WORKING")))
        }
        let metrics = service.metrics
        router.get("metrics") { _, _ -> Response in
            let bytes = metrics.exposition()
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        let limits = ConnectionLimits(
            header: .seconds(configuration.headerTimeout),
            idle: .seconds(configuration.idleTimeout), maximum: configuration.maxConnections)
        return Application(
            router: router,
            server: limits.serverBuilder(),
            configuration: .init(
                address: .hostname(configuration.bind, port: configuration.port),
                serverName: "wi-serve",
                availableConnectionsDelegate: MaximumAvailableConnections(
                    configuration.maxConnections,
                    logger: logger)),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    /// Serves until SIGTERM or SIGINT: the server stops accepting, requests in flight finish, then the manager
    /// shuts down (its loads, caches, pools and threads end) and `run` returns.
    public func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let group = makeServiceGroup(onServerRunning: onServerRunning, signals: [.sigterm, .sigint])
        try await group.run()
    }

    /// The service group `run` runs: the manager's service first, so that it is shut down after the server
    /// (swift-service-lifecycle shuts services down in reverse order, each after the previous returned).
    public func makeServiceGroup(
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        signals: [UnixSignal] = []
    ) -> ServiceGroup {
        ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: ImageManagerService(manager)),
                    .init(service: makeApplication(onServerRunning: onServerRunning)),
                ],
                gracefulShutdownSignals: signals, logger: logger))
    }
}

/// Every answer's `X-Request-ID`, taken from the request or made, and written to its access-log line.
enum RequestID {
    /// The request's id: its `X-Request-ID` when that is one line of 1 to 128 visible ASCII characters, else a new
    /// one (32 hexadecimal digits).
    static func of(_ request: Request) -> String {
        if let given = request.headers[field], (1...128).contains(given.utf8.count),
            given.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        {
            return given
        }
        return make()
    }

    /// A new id: the process's random 64 bits, then a count mixed by splitmix64's finalizer (a bijection, so ids
    /// never repeat within a process and do not show the count). No system call per request, where two random
    /// numbers each asked the kernel.
    static func make() -> String {
        var mixed = seed.1 ^ counter.add(1, ordering: .relaxed).newValue
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        mixed ^= mixed >> 31
        return String(unsafeUninitializedCapacity: 32) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for nibble in 0..<32 {
                let value = nibble < 16 ? seed.0 : mixed
                buffer[nibble] = digits.utf8Start[Int((value >> UInt64(60 - nibble % 16 * 4)) & 0xF)]
            }
            return 32
        }
    }

    private static let seed = (UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))
    private static let counter = Atomic<UInt64>(0)

    /// `X-Request-ID`.
    static let field = HTTPField.Name("X-Request-ID")!

    /// The id of the request being answered (set by `AccessLogMiddleware`).
    @TaskLocal static var current = ""
}

extension ServeRequest {
    /// The service's view of a Hummingbird request: method, the path with its query (an image URL's own query,
    /// `...?v=2`, belongs to it, as libthumbor signs it) after `prefix`, the validators and Accept.
    init(http request: Request, droppingPrefix prefix: String = "") {
        var path = request.uri.path
        if !prefix.isEmpty, path.hasPrefix(prefix) { path = String(path.dropFirst(prefix.count)) }
        self.init(
            isHead: request.method == .head, path: path, query: request.uri.query,
            accept: request.headers[.accept], ifNoneMatch: request.headers[.ifNoneMatch],
            ifModifiedSince: request.headers[.ifModifiedSince])
    }
}

extension ServeResponse {
    /// The Hummingbird response of this answer (Content-Length the announced one).
    public var response: Response {
        let output = self
        var headers = HTTPFields()
        for (name, value) in output.fieldsWithLength {
            if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
        }
        return Response(
            status: .init(code: output.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: output.body)))
    }
}

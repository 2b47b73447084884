#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
public import Hummingbird
public import Logging
import NIOCore
public import ServiceLifecycle
public import UnixSignals
public import WICore
import WIServiceLifecycle

/// `wi serve`: a thumbor-compatible image service on Hummingbird over the WebImage pipeline.
///
/// `GET|HEAD /{unsafe|SIGNATURE}/[AxB:CxD/][fit-in/][-]WxH/[halign/][valign/][smart/][filters:...]/IMAGE_URL`,
/// `/healthz`, `/metrics` (Prometheus text). `run()` serves until SIGTERM or SIGINT, lets requests in flight
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
    /// out of range and the disk and Redis tiers' errors. `logger` gets the access log (info) and the pipeline's
    /// warnings.
    public init(configuration: ServeConfiguration, logger: Logger = .webImageNoOp) throws(ImageError) {
        self.configuration = configuration
        self.logger = logger
        service = try ImageService(configuration: configuration, metrics: ServeMetrics(), logger: logger)
    }

    /// The Hummingbird application (not started); `onServerRunning` gets the bound port.
    public func makeApplication(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: AccessLogMiddleware(logger: logger, metrics: service.metrics))
        router.add(middleware: ThumborMiddleware(service: service))
        router.get("healthz") { _, _ in "ok\n" }
        let metrics = service.metrics
        router.get("metrics") { _, _ -> Response in
            let bytes = metrics.exposition()
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        return Application(
            router: router,
            configuration: .init(address: .hostname(configuration.bind, port: configuration.port),
                                 serverName: "wi-serve"),
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
    public func makeServiceGroup(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
                                 signals: [UnixSignal] = []) -> ServiceGroup {
        ServiceGroup(configuration: .init(services: [.init(service: ImageManagerService(manager)),
                                                     .init(service: makeApplication(onServerRunning: onServerRunning))],
                                          gracefulShutdownSignals: signals, logger: logger))
    }
}

/// Answers every path but `/healthz` and `/metrics` as a thumbor URL (GET and HEAD; other methods get 405).
struct ThumborMiddleware<Context: RequestContext>: RouterMiddleware {
    let service: ImageService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if request.uri.path == "/healthz" || request.uri.path == "/metrics" { return try await next(request, context) }
        // An image URL's own query (`...?v=2`) belongs to it, as libthumbor signs it.
        let path = request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
        guard request.method == .get || request.method == .head else {
            return Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD", .contentType: "text/plain; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: "method not allowed\n")))
        }
        let input = ServeInput(method: request.method == .head ? "HEAD" : "GET", path: path,
                               accept: request.headers[.accept], ifNoneMatch: request.headers[.ifNoneMatch])
        let output = await service.respond(to: input)
        var headers = HTTPFields()
        for (name, value) in output.headers {
            if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
        }
        headers[.contentLength] = String(output.contentLength)
        return Response(status: .init(code: output.status), headers: headers,
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: output.body)))
    }
}

/// One access-log line per request (info: method, path, status, bytes, milliseconds) and the request metrics.
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger
    let metrics: ServeMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        var status = 500
        var bytes = "-"
        defer {
            let elapsed = ContinuousClock.now - start
            metrics.record(status: status, duration: elapsed)
            let tenths = elapsed.components.seconds * 10_000 + elapsed.components.attoseconds / 100_000_000_000_000
            logger.info("\(request.method) \(request.uri.path) \(status) \(bytes) \(tenths / 10).\(tenths % 10)ms",
                        metadata: ["status": "\(status)"])
        }
        do {
            let response = try await next(request, context)
            status = response.status.code
            bytes = response.headers[.contentLength] ?? "-"
            return response
        } catch let error as HTTPError {
            status = error.status.code
            throw error
        }
    }
}

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
    /// out of range, the disk tier's errors and `.networkError` when `--redis` cannot be reached (after shutting
    /// down what it had made). `logger` gets the access log (info) and the pipeline's warnings; `tracer` a
    /// `wi.serve.request` span per image request (its `request_id` attribute the answer's `X-Request-ID`), parent
    /// of the pipeline's `webimage.*` spans.
    public init(configuration: ServeConfiguration, logger: Logger = .webImageNoOp,
                tracer: any Tracer = InstrumentationSystem.tracer) async throws(ImageError) {
        try await self.init(configuration: configuration, logger: logger, tracer: tracer, made: { _ in })
    }

    /// `init(configuration:logger:tracer:)`, with `made` seeing each part that needs a shutdown as it is made
    /// (tests).
    init(configuration: ServeConfiguration, logger: Logger, tracer: any Tracer = InstrumentationSystem.tracer,
         made: @Sendable (any ShutdownCapable) -> Void) async throws(ImageError) {
        self.configuration = configuration
        self.logger = logger
        service = try await ImageService(configuration: configuration, metrics: ServeMetrics(), logger: logger,
                                         tracer: tracer, made: made)
    }

    /// The Hummingbird application (not started); `onServerRunning` gets the bound port.
    public func makeApplication(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: ServeMiddleware(service: service, logger: logger))
        router.get("healthz") { _, _ in "ok\n" }
        let metrics = service.metrics
        router.get("metrics") { _, _ -> Response in
            let bytes = metrics.exposition()
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        let limits = ConnectionLimits(header: .seconds(configuration.headerTimeout),
                                      idle: .seconds(configuration.idleTimeout), maximum: configuration.maxConnections)
        return Application(
            router: router,
            server: limits.serverBuilder(),
            configuration: .init(address: .hostname(configuration.bind, port: configuration.port),
                                 serverName: "wi-serve",
                                 availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections,
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
    public func makeServiceGroup(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
                                 signals: [UnixSignal] = []) -> ServiceGroup {
        ServiceGroup(configuration: .init(services: [.init(service: ImageManagerService(manager)),
                                                     .init(service: makeApplication(onServerRunning: onServerRunning))],
                                          gracefulShutdownSignals: signals, logger: logger))
    }
}

/// Every request: admission first for image paths (a refusal is a prebuilt 503, before any parsing, signature
/// check or timing), then the thumbor service; `/healthz` and `/metrics` go to the router. Every request gets one
/// access-log line (info: method, path, status, bytes, milliseconds); admitted requests and the other paths also
/// get the request metrics, refusals only the 503 counter.
struct ServeMiddleware<Context: RequestContext>: RouterMiddleware {
    let service: ImageService
    let logger: Logger
    let refusals: Refusals

    init(service: ImageService, logger: Logger) {
        self.service = service
        self.logger = logger
        refusals = Refusals(configuration: service.configuration, metrics: service.metrics, logger: logger)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let path = request.uri.path
        let id = RequestID.of(request)
        guard path != "/healthz", path != "/metrics" else {
            return try await logged(request, id: id) { try await next(request, context) }
        }
        guard request.method == .get || request.method == .head else {
            return await logged(request, id: id) {
                Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD", .contentType: "text/plain; charset=utf-8"],
                         body: ResponseBody(byteBuffer: ByteBuffer(string: "method not allowed\n")))
            }
        }
        // The deadline counts from the request's arrival: the wait in line is part of `--timeout`.
        let start = ContinuousClock.now
        var input = ServeRequest(http: request)
        switch await service.admit(&input) {
        case .refused:
            return refusals.refuse(request, waited: start, id: id)
        case .timedOut:
            return await logged(request, id: id, since: start) { Self.response(service.timedOutInLine(input)) }
        case .admitted:
            break
        }
        defer { service.gate.release() }
        var detail: String?
        return await logged(request, id: id, since: start, detail: { detail }) {
            let output = await service.tracer.withSpan("wi.serve.request", ofKind: .server) { span in
                span.attributes["request_id"] = id
                span.attributes["http.target"] = path
                let output = await service.answer(thumbor: input)
                span.attributes["http.status_code"] = output.status
                return output
            }
            detail = output.detail
            return Self.response(output)
        }
    }

    /// The HTTP response of a service answer.
    static func response(_ output: ServeResponse) -> Response { output.response }

    /// Runs `body` with one access-log line (with the request's id, and `detail` of a failure) and the request
    /// metrics, timed from `start`; the answer carries the id in `X-Request-ID`.
    private func logged(_ request: Request, id: String, since start: ContinuousClock.Instant = .now,
                        detail: () -> String? = { nil }, _ body: () async throws -> Response) async rethrows -> Response {
        var status = 500
        var bytes = "-"
        defer {
            let elapsed = ContinuousClock.now - start
            service.metrics.record(status: status, duration: elapsed)
            logAccess(logger, request, status: status, bytes: bytes, elapsed: elapsed, id: id, detail: detail())
        }
        do {
            var response = try await body()
            status = response.status.code
            bytes = response.headers[.contentLength] ?? "-"
            response.headers[RequestID.field] = id
            return response
        } catch let error as HTTPError {
            status = error.status.code
            throw error
        }
    }
}

/// Writes a request's access-log line at info: `METHOD PATH STATUS BYTES MILLISECONDS` (bytes `-` when unknown,
/// milliseconds with one decimal), with the status, the request id and a failure's detail (what the client does
/// not see) as metadata. Nothing is formatted when info is not logged.
func logAccess(_ logger: Logger, _ request: Request, status: Int, bytes: String, elapsed: Duration, id: String,
               detail: String? = nil) {
    guard logger.logLevel <= .info else { return }
    let tenths = elapsed.components.seconds * 10_000 + elapsed.components.attoseconds / 100_000_000_000_000
    var metadata: Logger.Metadata = ["status": "\(status)", "request_id": "\(id)"]
    if let detail { metadata["error"] = "\(detail)" }
    logger.info("\(request.method) \(request.uri.path) \(status) \(bytes) \(tenths / 10).\(tenths % 10)ms",
                metadata: metadata)
}

/// The answer to a request the admission gate refuses, built once: 503, `Retry-After: 1`, the one-line reason.
/// Each refusal costs an atomic increment of `webimage_serve_requests_total{status="503"}` and its access-log line
/// (docs/ARCHITECTURE.md, "Admission first, refusals prebuilt", measures what the line costs under a flood).
///
/// Thread safety: immutable responses and a metrics counter; `refuse` may be called from any task.
final class Refusals: Sendable {
    private let get: Response
    private let head: Response
    private let contentLength: String
    private let counter: CoreMetrics.Counter
    private let logger: Logger

    init(configuration: ServeConfiguration, metrics: ServeMetrics, logger: Logger) {
        let reason = "too many requests: \(configuration.concurrency) working and \(configuration.queue) waiting"
        let body = ByteBuffer(string: reason + "\n")
        contentLength = String(body.readableBytes)
        let headers: HTTPFields = [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store",
                                   .retryAfter: "1", .contentLength: contentLength]
        get = Response(status: .serviceUnavailable, headers: headers, body: ResponseBody(byteBuffer: body))
        head = Response(status: .serviceUnavailable, headers: headers, body: ResponseBody())
        counter = metrics.requestCounter(status: 503)
        self.logger = logger
    }

    /// Counts one refusal, writes its access-log line and returns the prebuilt answer (no body for HEAD,
    /// Content-Length still the GET's) with the request's id. `waited` is when the request joined the line, nil when refused at once.
    func refuse(_ request: Request, waited: ContinuousClock.Instant?, id: String) -> Response {
        counter.increment()
        let elapsed = waited.map { ContinuousClock.now - $0 } ?? .zero
        logAccess(logger, request, status: 503, bytes: contentLength, elapsed: elapsed, id: id)
        var response = request.method == .head ? head : get
        response.headers[RequestID.field] = id
        return response
    }
}

/// Every answer's `X-Request-ID`, taken from the request or made, and written to its access-log line.
enum RequestID {
    /// The request's id: its `X-Request-ID` when that is one line of 1 to 128 visible ASCII characters, else a new
    /// one (32 hexadecimal digits).
    static func of(_ request: Request) -> String {
        if let given = request.headers[field], (1...128).contains(given.utf8.count),
           given.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
            return given
        }
        let bits = (UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))
        return hex(bits.0) + hex(bits.1)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `X-Request-ID`.
    static let field = HTTPField.Name("X-Request-ID")!
}

extension ServeRequest {
    /// The service's view of a Hummingbird request: method, the path with its query (an image URL's own query,
    /// `...?v=2`, belongs to it, as libthumbor signs it) after `prefix`, the validators and Accept.
    init(http request: Request, droppingPrefix prefix: String = "") {
        var path = request.uri.path
        if !prefix.isEmpty, path.hasPrefix(prefix) { path = String(path.dropFirst(prefix.count)) }
        if !path.hasPrefix("/") { path = "/" + path }
        self.init(method: request.method == .head ? "HEAD" : "GET", path: request.uri.query.map { "\(path)?\($0)" } ?? path,
                  accept: request.headers[.accept], ifNoneMatch: request.headers[.ifNoneMatch],
                  ifModifiedSince: request.headers[.ifModifiedSince])
    }
}

extension ServeResponse {
    /// The Hummingbird response of this answer (Content-Length the announced one).
    public var response: Response {
        let output = self
        var headers = HTTPFields()
        for (name, value) in output.headers {
            if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
        }
        headers[.contentLength] = String(output.contentLength)
        return Response(status: .init(code: output.status), headers: headers,
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: output.body)))
    }
}

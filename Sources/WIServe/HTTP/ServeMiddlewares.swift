import WIServeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Tracing

/// An error answer of the service as Hummingbird's `HTTPResponseError`: the status and the one-line public reason
/// the client reads; `detail` (what went wrong inside) is for the access log only, never the response.
///
/// Thread safety: a value type; safe to send and share.
struct ServeHTTPError: HTTPResponseError {
    /// The service's answer (a text body, `Cache-Control: no-store`, `Retry-After` on 503).
    let answer: ServeResponse
    /// The request's id, set by `AccessLogMiddleware` on its way out.
    var requestID: String?

    var status: HTTPResponse.Status { .init(code: answer.status) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = answer.response
        if let requestID { response.headers[RequestID.field] = requestID }
        return response
    }
}

/// Outermost: every request's id (`X-Request-ID`, taken or made) and its one access-log line at info (method,
/// path, status, bytes, milliseconds; the id and a failure's detail as metadata).
///
/// Thread safety: immutable; Hummingbird calls it from any task.
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let id = RequestID.of(request)
        let start = ContinuousClock.now
        do {
            var response = try await RequestID.$current.withValue(id) { try await next(request, context) }
            response.headers[RequestID.field] = id
            logAccess(
                logger, request, status: response.status.code,
                bytes: response.headers[HTTPField.Name.contentLength] ?? "-",
                elapsed: ContinuousClock.now - start, id: id)
            return response
        } catch var error as ServeHTTPError {
            error.requestID = id
            logAccess(
                logger, request, status: error.answer.status, bytes: String(error.answer.contentLength),
                elapsed: ContinuousClock.now - start, id: id, detail: error.answer.detail)
            throw error
        } catch let error as any HTTPResponseError {
            logAccess(
                logger, request, status: error.status.code, bytes: "-", elapsed: ContinuousClock.now - start, id: id)
            throw error
        }
    }
}

/// `webimage_serve_requests_total{status}` and `webimage_serve_request_duration_seconds{status}` for every
/// request, refusals included.
///
/// Thread safety: immutable; the metrics are thread-safe.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServeMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.record(status: response.status.code, duration: ContinuousClock.now - start)
            return response
        } catch let error as any HTTPResponseError {
            metrics.record(status: error.status.code, duration: ContinuousClock.now - start)
            throw error
        }
    }
}

/// The server's own routes, which are never image requests (a global: a generic type has no stored static).
private let serviceOwnPaths: Set<String> = ["/healthz", "/healthcheck", "/healthcheck/", "/metrics"]

/// Admission, first for image requests: `/healthz`, `/healthcheck`, `/metrics` and the app's routes pass; a method other than GET
/// or HEAD is a 405; a request the gate refuses is the prebuilt 503 (before any parsing, signature check or
/// work); one whose deadline passes in line a 504. An admitted request is in flight until the answer is made (it
/// holds its slot but while it waits for bytes: `RequestSlot`), its deadline (arrival + `--timeout`) and slot in
/// `AdmittedRequest.current` for `ThumborMiddleware`.
///
/// Thread safety: immutable; Hummingbird calls it from any task.
struct AdmissionMiddleware<Context: RequestContext>: RouterMiddleware {
    let service: ImageService
    private let refusedGET: Response
    private let refusedHEAD: Response

    init(service: ImageService) {
        self.service = service
        refusedGET = service.refused(ServeRequest(method: "GET", path: "/")).response
        refusedHEAD = service.refused(ServeRequest(method: "HEAD", path: "/")).response
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let path = request.uri.path
        guard !serviceOwnPaths.contains(path) else { return try await next(request, context) }
        guard request.method == .get || request.method == .head else {
            return Response(
                status: .methodNotAllowed, headers: [.allow: "GET, HEAD", .contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "method not allowed\n")))
        }
        var input = ServeRequest(http: request)
        switch await service.admit(&input) {
        case .refused:
            return request.method == .head ? refusedHEAD : refusedGET
        case .timedOut:
            throw ServeHTTPError(answer: service.timedOutInLine(input))
        case .admitted:
            defer { input.slot?.finish() }
            return try await AdmittedRequest.$current.withValue(input) { try await next(request, context) }
        }
    }
}

/// The request `AdmissionMiddleware` admitted (with its deadline), for the answer's middleware.
enum AdmittedRequest {
    @TaskLocal static var current: ServeRequest?
}

/// The answer to an admitted thumbor request, in a `wi.serve.request` span: the image, or a `ServeHTTPError`.
///
/// Thread safety: immutable; Hummingbird calls it from any task.
struct ThumborMiddleware<Context: RequestContext>: RouterMiddleware {
    let service: ImageService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let input = AdmittedRequest.current else { return try await next(request, context) }
        let answer = await service.tracer.withSpan("wi.serve.request", ofKind: .server) { span in
            // Attributes only for a span that records them (a no-op tracer's cost 1.2% of a cached answer).
            if span.isRecording {
                span.attributes["request_id"] = RequestID.current
                span.attributes["http.target"] = request.uri.path
            }
            let answer = await service.answer(thumbor: input)
            if span.isRecording { span.attributes["http.status_code"] = answer.status }
            return answer
        }
        guard answer.status < 400 else { throw ServeHTTPError(answer: answer) }
        return answer.response
    }
}

/// Writes a request's access-log line at info: `METHOD PATH STATUS BYTES MILLISECONDS` (bytes `-` when unknown,
/// milliseconds with one decimal), with the status, the request id and a failure's detail (what the client does
/// not see) as metadata. Nothing is formatted when info is not logged.
func logAccess(
    _ logger: Logger, _ request: Request, status: Int, bytes: String, elapsed: Duration, id: String,
    detail: String? = nil
) {
    guard logger.logLevel <= .info else { return }
    let tenths = elapsed.components.seconds * 10_000 + elapsed.components.attoseconds / 100_000_000_000_000
    var metadata: Logger.Metadata = ["status": "\(status)", "request_id": "\(id)"]
    if let detail { metadata["error"] = "\(detail)" }
    logger.info(
        "\(request.method) \(request.uri.path) \(status) \(bytes) \(tenths / 10).\(tenths % 10)ms",
        metadata: metadata)
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import Vapor

extension ServeRequest {
    /// The service's view of a Vapor request: HEAD or else GET, `path` (the raw path, or what follows the prefix
    /// the routes are mounted at; not percent-decoded) with the request's query as sent, and its Accept,
    /// If-None-Match and If-Modified-Since (repeated fields joined with ", ").
    ///
    /// Thread safety: reads `request` once; the value is safe to send and share.
    public init(_ request: Request, path: String) {
        let headers = request.headers
        func field(_ name: HTTPHeaders.Name) -> String? {
            let values = headers[name]
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }
        self.init(
            isHead: request.method == .HEAD, path: path, query: request.url.query, accept: field(.accept),
            ifNoneMatch: field(.ifNoneMatch), ifModifiedSince: field(.ifModifiedSince))
    }
}

extension Response {
    /// The Vapor response of a service answer: its status, its header fields in order, and Content-Length the
    /// announced length (the GET body's for HEAD, whose body is empty), not the body's.
    ///
    /// Thread safety: a new response, owned by the caller.
    public convenience init(_ answer: ServeResponse) {
        var headers = HTTPHeaders()
        for (name, value) in answer.fieldsWithLength { headers.add(name: name, value: value) }
        self.init(
            status: HTTPResponseStatus(statusCode: answer.status), version: .http1_1, headersNoUpdate: headers,
            body: answer.body.isEmpty ? .empty : Response.Body(data: answer.body))
    }
}

/// Why the service refused or failed a request: the HTTP status and a one-line reason for the body.
///
/// Thread safety: a value type; safe to send and share.
struct ServeError: Error, Sendable, Equatable {
    /// The HTTP statuses the service answers errors with.
    enum Status: Int, Sendable {
        case badRequest = 400
        case forbidden = 403
        case notFound = 404
        case payloadTooLarge = 413
        case unsupportedMediaType = 415
        case internalError = 500
        case badGateway = 502
        case serviceUnavailable = 503
        case gatewayTimeout = 504
    }

    var status: Status
    /// One line, no newline: what the client reads.
    var reason: String
    /// What the log gets beside the reason (the pipeline's own description), never the client.
    var detail: String?

    init(_ status: Status, _ reason: String) {
        self.status = status
        self.reason = reason.replacingNewlines()
    }
}

extension String {
    /// The text on one line: newlines become spaces.
    func replacingNewlines() -> String {
        String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}

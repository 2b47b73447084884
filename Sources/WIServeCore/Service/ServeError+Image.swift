import WICore
import WIIsolation
import WILoaderCurl

extension ServeError {
    /// The answer for a pipeline error: the status, a public one-line reason, and the pipeline's own description
    /// as `detail` for the log only (it may name libraries, addresses or files the client has no business seeing,
    /// as imgproxy keeps its public and internal messages apart).
    ///
    /// The origin's 404 stays 404, the source's size limit is 413, the pixel and frame limits 400 as in thumbor
    /// (whose PIL engine refuses an image over MAX_PIXELS as one it cannot load) or 413 when `strict`, refused
    /// addresses and schemes 403, bad arguments and undecodable sources 400, origin failures and decode workers
    /// that died 502, timeouts 504, cancelled or shut down 503.
    init(_ error: ImageError, strict: Bool) {
        let origin = error.statusCode.map { "the origin answered \($0)" } ?? "the origin failed"
        let (status, reason): (Status, String) =
            switch error.code {
            case .badServerResponse where error.statusCode == 404 || error.statusCode == 410:
                (.notFound, "the source was not found (\(origin))")
            case .badServerResponse: (.badGateway, origin)
            case .invalidDownloadResponse, .networkError, .tooManyRedirects:
                (.badGateway, "the source could not be fetched")
            case .decoderCrashed: (.badGateway, "the source could not be decoded: its decoder failed")
            // The service's own limit texts: they say which limit, nothing internal.
            case .pixelLimitExceeded: (strict ? .payloadTooLarge : .badRequest, error.message)
            case .invalidArgument: (.badRequest, error.message)
            case .bodyTooLarge: (.payloadTooLarge, "the source is larger than the service accepts")
            case .addressNotAllowed: (.forbidden, "the source's address is not allowed")
            case .schemeNotAllowed: (.forbidden, "the source's scheme is not allowed")
            case .invalidDownloadContentType: (.unsupportedMediaType, "the source is not an image")
            case .invalidURL: (.badRequest, "bad image URL")
            case .badImageData: (.badRequest, "the source image is invalid or truncated")
            case .unsupportedFormat: (.badRequest, "the source's format is not supported")
            case .timedOut: (.gatewayTimeout, "the origin took too long")
            case .cancelled: (.serviceUnavailable, "the request was cancelled")
            case .shutDown: (.serviceUnavailable, "the service is shutting down")
            case .outOfMemory: (.internalError, "the source needs more memory than the service has")
            default: (.internalError, "internal error")
            }
        self.init(status, reason)
        detail = "\(error.code): \(error.message)"
    }
}

import WICore
import WIIsolation
import WILoaderCurl

extension ServeError {
    /// The answer for a pipeline error: the origin's 404 stays 404, limits are 413, refused addresses and schemes
    /// 403, bad arguments and undecodable sources 400, origin failures and decode workers that died 502, timeouts 504, cancelled or shut down 503.
    init(_ error: ImageError) {
        let status: Status = switch error.code {
        case .badServerResponse where error.statusCode == 404 || error.statusCode == 410: .notFound
        case .badServerResponse, .invalidDownloadResponse, .networkError, .tooManyRedirects, .decoderCrashed: .badGateway
        case .pixelLimitExceeded, .bodyTooLarge: .payloadTooLarge
        case .addressNotAllowed, .schemeNotAllowed: .forbidden
        case .invalidDownloadContentType: .unsupportedMediaType
        case .invalidURL, .invalidArgument, .badImageData, .unsupportedFormat: .badRequest
        case .timedOut: .gatewayTimeout
        case .cancelled, .shutDown: .serviceUnavailable
        default: .internalError
        }
        self.init(status, "\(error.code): \(error.message)")
    }
}

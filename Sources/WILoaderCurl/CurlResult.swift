private import CCurl
private import CCurlShim
import WICore

/// A libcurl result code, and the one place that turns it into an `ImageError`.
///
/// Thread safety: a value type; safe to send and share.
struct CurlResult: Sendable, Hashable {
    let rawValue: UInt32

    init(rawValue: UInt32) { self.rawValue = rawValue }

    var isOK: Bool { rawValue == CURLE_OK.rawValue }

    /// libcurl's own text for the code ("curl error N" when libcurl cannot be loaded).
    var text: String {
        guard (try? CurlLibrary.load()) != nil else { return "curl error \(rawValue)" }
        return String(cString: ccurl_easy_strerror(CURLcode(rawValue)))
    }

    /// Whether retrying may help: refused or dropped connections, timeouts, bodies cut short.
    var isTransient: Bool {
        [
            CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT, CURLE_PARTIAL_FILE,
            CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM,
            CURLE_SSL_CONNECT_ERROR,
        ].contains { $0.rawValue == rawValue }
    }

    /// The `ImageError` for a failed transfer; `detail` is libcurl's error buffer (more specific than `text`).
    func error(detail: String) -> ImageError {
        let message = "curl error \(rawValue): \(detail.isEmpty ? text : detail)"
        switch CURLcode(rawValue) {
        case CURLE_OPERATION_TIMEDOUT: return ImageError(.timedOut, message)
        case CURLE_TOO_MANY_REDIRECTS: return ImageError(.tooManyRedirects, message)
        case CURLE_UNSUPPORTED_PROTOCOL: return ImageError(.schemeNotAllowed, message)
        case CURLE_FILESIZE_EXCEEDED: return ImageError(.bodyTooLarge, message)
        case CURLE_URL_MALFORMAT: return ImageError(.invalidURL, message)
        case CURLE_OUT_OF_MEMORY: return ImageError(.outOfMemory, message)
        default: return ImageError(.networkError, message)
        }
    }
}

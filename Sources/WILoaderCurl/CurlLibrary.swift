private import CCurl

/// The libcurl this plugin is linked against.
///
/// Thread safety: read-only; safe from any thread.
public enum CurlLibrary {
    /// libcurl's version, as it reports it at run time ("7.88.1").
    public static var version: String {
        guard let info = ccurl_version_info(), let text = info.pointee.version else { return "unknown" }
        return String(cString: text)
    }

    /// Whether this libcurl was built with HTTP/2 (nghttp2).
    public static var supportsHTTP2: Bool {
        guard let info = ccurl_version_info() else { return false }
        return info.pointee.features & CURL_VERSION_HTTP2 != 0
    }
}

private import CCurl
private import CCurlShim
import WICore

/// The libcurl this plugin uses, opened (`dlopen`) when a curl loader starts its first http(s) load or the version
/// is asked for, not when the process starts: a process that never loads a URL over the network never maps libcurl
/// and the TLS, HTTP/2, SSH and LDAP libraries it depends on (docs/decisions/0025-codec-libraries-opened-on-first-use.md).
///
/// Thread safety: read-only after the first use, which Swift runs once; safe from any thread.
public enum CurlLibrary {
    /// libcurl's version, as it reports it at run time ("7.88.1"), or "unavailable" when it cannot be loaded.
    public static var version: String {
        guard (try? load()) != nil, let info = ccurl_version_info(), let text = info.pointee.version else {
            return "unavailable"
        }
        return String(cString: text)
    }

    /// Whether this libcurl was built with HTTP/2 (nghttp2); false when it cannot be loaded.
    public static var supportsHTTP2: Bool {
        guard (try? load()) != nil, let info = ccurl_version_info() else { return false }
        return info.pointee.features & CURL_VERSION_HTTP2 != 0
    }

    /// Loads libcurl once, makes its functions the ones CCurlShim calls and runs `curl_global_init`;
    /// `.unsupportedFormat` naming the library when it cannot be loaded (then no CCurlShim function may be called).
    static func load() throws(ImageError) { _ = try shared.get() }

    /// Opens `soname` as libcurl and binds every function the shim calls, as the first use does (without making
    /// them the shim's), then lets it go: the test hook for a library that is missing or lacks a function.
    package static func check(soname: String) throws(ImageError) { _ = try open(soname: soname, install: false) }

    private static let shared = Result { () throws(ImageError) -> SharedLibrary<Void> in
        let library = try open(soname: "libcurl.so.4", install: true)
        let status = ccurl_global_init(Int(CURL_GLOBAL_DEFAULT))
        guard status == CURLE_OK else {
            throw ImageError(.unsupportedFormat, "libcurl failed to initialize: curl error \(status.rawValue)")
        }
        return library
    }

    private static func open(soname: String, install: Bool) throws(ImageError) -> SharedLibrary<Void> {
        try SharedLibrary(soname: soname) { handle, _ in ccurl_bind(handle, install ? 1 : 0) }
    }
}

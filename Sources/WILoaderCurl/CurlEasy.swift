#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
private import CCurl
private import CCurlShim
import WICore

/// What the loader's thread hears from one libcurl transfer, from inside libcurl's callbacks.
protocol CurlTransferEvents: AnyObject {
    /// One raw header line, CRLF included (status lines of every response, redirects too); the bytes are valid
    /// only during the call. Returning false stops the transfer.
    func curlHeaderLine(_ line: UnsafeRawBufferPointer) -> Bool
    /// The next bytes of the body; returning false stops the transfer (it ends with a write error).
    func curlBody(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Whether a connection may go to `address` (textual form) with these raw bytes (4 or 16).
    func curlMayConnect(to address: String, bytes: [UInt8]) -> Bool
}

/// How one easy handle is set up: everything libcurl needs to know about a request.
struct CurlRequestSettings {
    var url: String
    var method = "GET"
    var headers: CurlHeaderList
    var maximumRedirects = 10
    /// Comma-separated protocols libcurl may use and follow redirects to ("http,https"); a static string, which
    /// reaches libcurl without the copy a small Swift string needs to become a C string.
    var protocols: StaticString = "http,https"
    var connectTimeout: Double = 10
    var lowSpeedLimit = 1024
    var lowSpeedTime = 15
    var totalTimeout: Double?
    var maximumBodySize: Int64 = 0
    var allowsHTTP2 = true
    /// Whether to wait for a connection to tell whether it multiplexes (`CURLOPT_PIPEWAIT`).
    var waitsForMultiplexing = false
    var allowInvalidCertificates = false
    var handleCookies = false
    var credentials: CurlImageLoader.Credentials?
    /// The proxy every request goes through (the loader's `proxy`), nil for none.
    var proxy: String?
    /// Whether libcurl may use a proxy named by http_proxy/https_proxy/all_proxy. Off under an address policy:
    /// the policy could only check the proxy's address, and the proxy would reach the target unchecked.
    var usesProxyFromEnvironment = true
}

/// Owns one libcurl easy handle and its error buffer, and holds its header list.
///
/// A handle whose HTTP/1.x transfer ended cleanly may serve another request (`reuse`): `curl_easy_reset` clears
/// every option (headers, callbacks, private pointer, credentials, range) and keeps only caches.
///
/// Thread safety: confined to the loader's thread.
final class CurlEasy {
    private let handle: UnsafeMutableRawPointer
    private var headerList: CurlHeaderList?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private unowned var events: any CurlTransferEvents
    private let onFree: (_ wasSpare: Bool) -> Void
    /// Whether the handle waits in the engine's spare pool (no transfer owns it).
    var isSpare = false
    /// Whether the current request turned on state that `curl_easy_reset` does not clear: the cookie engine (it
    /// stays on after a reset, so a reused handle would send the shared jar's cookies to a request that did not ask
    /// for them) or authentication. Such a handle is never reused.
    private(set) var carriesSessionState = false

    /// Why libcurl refused an option of the settings, if it did; the handle must not run then.
    private(set) var setupError: ImageError?

    /// Creates a handle for `settings` whose callbacks go to `events`, or nil when libcurl is out of memory;
    /// `onFree` runs when it is freed, told whether it was spare. `privatePointer` comes back from
    /// `CurlMulti.finished()` when the transfer ends.
    init?(
        _ settings: CurlRequestSettings, share: UnsafeMutableRawPointer, privatePointer: UnsafeMutableRawPointer,
        events: any CurlTransferEvents, onFree: @escaping (_ wasSpare: Bool) -> Void
    ) {
        guard let handle = ccurl_easy_init() else { return nil }
        self.handle = handle
        self.events = events
        self.onFree = onFree
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        setupError = apply(settings, share: share, privatePointer: privatePointer)
    }

    deinit {
        ccurl_easy_cleanup(handle)
        errorBuffer.deallocate()
        onFree(isSpare)
    }

    /// Clears everything the last request set and sets the handle up for `settings`; `setupError` tells
    /// whether libcurl took every option.
    func reuse(
        _ settings: CurlRequestSettings, share: UnsafeMutableRawPointer,
        privatePointer: UnsafeMutableRawPointer, events: any CurlTransferEvents
    ) {
        ccurl_easy_reset(handle)
        headerList = nil
        errorBuffer.update(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        self.events = events
        setupError = apply(settings, share: share, privatePointer: privatePointer)
    }

    func withHandle<T>(_ body: (UnsafeMutableRawPointer) -> T) -> T { body(handle) }

    /// libcurl's detailed message for the last failure ("" when none).
    var errorDetail: String { String(cString: errorBuffer) }

    private func apply(
        _ s: CurlRequestSettings, share: UnsafeMutableRawPointer,
        privatePointer: UnsafeMutableRawPointer
    ) -> ImageError? {
        var failure: (CURLoption, CURLcode)?
        func check(_ option: CURLoption, _ code: CURLcode) {
            if code != CURLE_OK && failure == nil { failure = (option, code) }
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        check(CURLOPT_ERRORBUFFER, ccurl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        check(CURLOPT_URL, ccurl_easy_setopt_string(handle, CURLOPT_URL, s.url))
        let protocols = UnsafeRawPointer(s.protocols.utf8Start).assumingMemoryBound(to: CChar.self)
        check(CURLOPT_PROTOCOLS_STR, ccurl_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, protocols))
        check(CURLOPT_REDIR_PROTOCOLS_STR, ccurl_easy_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, protocols))
        check(CURLOPT_NOSIGNAL, ccurl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        check(CURLOPT_SHARE, ccurl_easy_setopt_pointer(handle, CURLOPT_SHARE, share))
        check(CURLOPT_PRIVATE, ccurl_easy_setopt_private(handle, privatePointer))
        switch s.method {
        case "GET": break
        case "HEAD": check(CURLOPT_NOBODY, ccurl_easy_setopt_long(handle, CURLOPT_NOBODY, 1))
        default: check(CURLOPT_CUSTOMREQUEST, ccurl_easy_setopt_string(handle, CURLOPT_CUSTOMREQUEST, s.method))
        }
        headerList = s.headers
        if !s.headers.isComplete { check(CURLOPT_HTTPHEADER, CURLE_OUT_OF_MEMORY) }
        let list = s.headers.pointer?.assumingMemoryBound(to: curl_slist.self)
        check(CURLOPT_HTTPHEADER, ccurl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, list))
        // libcurl's default 16 KB receive buffer takes two reads (and two write callbacks) for a 20 KB image;
        // 64 KB, as the curl tool's own larger buffer, takes most images in one.
        check(CURLOPT_BUFFERSIZE, ccurl_easy_setopt_long(handle, CURLOPT_BUFFERSIZE, 64 << 10))
        check(CURLOPT_ACCEPT_ENCODING, ccurl_easy_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""))
        check(
            CURLOPT_FOLLOWLOCATION,
            ccurl_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, s.maximumRedirects > 0 ? 1 : 0))
        check(CURLOPT_MAXREDIRS, ccurl_easy_setopt_long(handle, CURLOPT_MAXREDIRS, s.maximumRedirects))
        check(CURLOPT_UNRESTRICTED_AUTH, ccurl_easy_setopt_long(handle, CURLOPT_UNRESTRICTED_AUTH, 0))
        check(
            CURLOPT_CONNECTTIMEOUT_MS,
            ccurl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(s.connectTimeout * 1000)))
        check(CURLOPT_LOW_SPEED_LIMIT, ccurl_easy_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, s.lowSpeedLimit))
        check(CURLOPT_LOW_SPEED_TIME, ccurl_easy_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, s.lowSpeedTime))
        if let total = s.totalTimeout {
            check(CURLOPT_TIMEOUT_MS, ccurl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, max(1, Int(total * 1000))))
        }
        if s.maximumBodySize > 0 {
            check(
                CURLOPT_MAXFILESIZE_LARGE,
                ccurl_easy_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(s.maximumBodySize)))
        }
        let version = s.allowsHTTP2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1
        check(CURLOPT_HTTP_VERSION, ccurl_easy_setopt_long(handle, CURLOPT_HTTP_VERSION, version))
        if s.waitsForMultiplexing {
            check(CURLOPT_PIPEWAIT, ccurl_easy_setopt_long(handle, CURLOPT_PIPEWAIT, 1))
        }
        if s.allowInvalidCertificates {
            check(CURLOPT_SSL_VERIFYPEER, ccurl_easy_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 0))
            check(CURLOPT_SSL_VERIFYHOST, ccurl_easy_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 0))
        }
        if let proxy = s.proxy {
            check(CURLOPT_PROXY, ccurl_easy_setopt_string(handle, CURLOPT_PROXY, proxy))
            // No host bypasses the proxy (NO_PROXY in the environment would otherwise connect directly, unchecked).
            check(CURLOPT_NOPROXY, ccurl_easy_setopt_string(handle, CURLOPT_NOPROXY, ""))
        } else if !s.usesProxyFromEnvironment {
            check(CURLOPT_PROXY, ccurl_easy_setopt_string(handle, CURLOPT_PROXY, ""))
        }
        carriesSessionState = s.handleCookies || s.credentials != nil
        if s.handleCookies { check(CURLOPT_COOKIEFILE, ccurl_easy_setopt_string(handle, CURLOPT_COOKIEFILE, "")) }
        if let credentials = s.credentials {
            check(CURLOPT_USERNAME, ccurl_easy_setopt_string(handle, CURLOPT_USERNAME, credentials.user))
            check(CURLOPT_PASSWORD, ccurl_easy_setopt_string(handle, CURLOPT_PASSWORD, credentials.password))
            check(CURLOPT_HTTPAUTH, ccurl_easy_setopt_long(handle, CURLOPT_HTTPAUTH, Int(bitPattern: ccurl_auth_any())))
        }
        check(CURLOPT_WRITEFUNCTION, ccurl_easy_setopt_write_callback(handle, curlWrite))
        check(CURLOPT_WRITEDATA, ccurl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, me))
        check(CURLOPT_HEADERFUNCTION, ccurl_easy_setopt_header_callback(handle, curlHeader))
        check(CURLOPT_HEADERDATA, ccurl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, me))
        check(CURLOPT_OPENSOCKETFUNCTION, ccurl_easy_setopt_opensocket_callback(handle, curlOpenSocket))
        check(CURLOPT_OPENSOCKETDATA, ccurl_easy_setopt_pointer(handle, CURLOPT_OPENSOCKETDATA, me))
        return failure.map { option, code in
            ImageError(
                .invalidDownloadOperation,
                "curl_easy_setopt(\(option.rawValue)) failed: \(CurlResult(rawValue: code.rawValue).text)")
        }
    }

    fileprivate var sink: any CurlTransferEvents { events }
}

private func easy(_ pointer: UnsafeMutableRawPointer?) -> CurlEasy {
    Unmanaged<CurlEasy>.fromOpaque(pointer!).takeUnretainedValue()
}

private let curlWrite: curl_write_callback = { buffer, size, count, userdata in
    let length = size * count
    let bytes = UnsafeRawBufferPointer(start: buffer, count: length)
    return easy(userdata).sink.curlBody(bytes) ? length : 0
}

private let curlHeader: curl_write_callback = { buffer, size, count, userdata in
    let length = size * count
    guard let buffer else { return length }
    return easy(userdata).sink.curlHeaderLine(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
}

/// Opens every socket libcurl connects with (close-on-exec), after the address policy approved the resolved address.
private let curlOpenSocket: curl_opensocket_callback = { clientp, _, address in
    guard let address else { return ccurl_socket_bad() }
    let family = address.pointee.family
    let raw = UnsafeRawPointer(ccurl_sockaddr_address(address)!)
    var bytes: [UInt8]
    switch family {
    case AF_INET:
        bytes = withUnsafeBytes(of: raw.load(as: sockaddr_in.self).sin_addr) { Array($0) }
    case AF_INET6:
        bytes = withUnsafeBytes(of: raw.load(as: sockaddr_in6.self).sin6_addr) { Array($0) }
    default:
        return ccurl_socket_bad()
    }
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
    let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard easy(clientp).sink.curlMayConnect(to: name, bytes: bytes) else { return ccurl_socket_bad() }
    // Close-on-exec: a program the application starts must not inherit the connection (it would hold it open after
    // the loader closed it, and could read the response).
    let fd = socket(family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.protocol)
    return fd < 0 ? ccurl_socket_bad() : fd
}

// What libcurl knows about the transfer (curl_easy_getinfo).
extension CurlEasy {
    /// The last response's status code (0 before one arrived).
    var responseCode: Int {
        var code = 0
        _ = ccurl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// Whether the last transfer spoke HTTP/1.0 or 1.1: only such a handle goes back to the spare pool (libcurl
    /// 7.88 refuses `CURLOPT_BUFFERSIZE` on a reset handle that served an HTTP/2 stream).
    var spokeHTTP1: Bool {
        var version = 0
        _ = ccurl_easy_getinfo_long(handle, CURLINFO_HTTP_VERSION, &version)
        return version == CURL_HTTP_VERSION_1_0 || version == CURL_HTTP_VERSION_1_1
    }

    /// The URL of the last request, after redirects.
    var effectiveURL: String? {
        var text: UnsafeMutablePointer<CChar>?
        _ = ccurl_easy_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &text)
        return text.map { String(cString: $0) }
    }

    /// Timing and transport facts of the finished transfer.
    var metrics: ImageLoading.Metrics {
        func micros(_ info: CURLINFO) -> Double {
            var value: curl_off_t = 0
            _ = ccurl_easy_getinfo_off(handle, info, &value)
            return Double(value) / 1_000_000
        }
        func long(_ info: CURLINFO) -> Int {
            var value = 0
            _ = ccurl_easy_getinfo_long(handle, info, &value)
            return value
        }
        var m = ImageLoading.Metrics()
        let lookup = micros(CURLINFO_NAMELOOKUP_TIME_T)
        let connect = micros(CURLINFO_CONNECT_TIME_T)
        let tls = micros(CURLINFO_APPCONNECT_TIME_T)
        m.dnsDuration = lookup
        m.connectDuration = max(0, connect - lookup)
        m.tlsDuration = tls > 0 ? max(0, tls - connect) : 0
        m.timeToFirstByte = micros(CURLINFO_STARTTRANSFER_TIME_T)
        m.totalDuration = micros(CURLINFO_TOTAL_TIME_T)
        var size: curl_off_t = 0
        _ = ccurl_easy_getinfo_off(handle, CURLINFO_SIZE_DOWNLOAD_T, &size)
        m.bytesReceived = Int64(size)
        switch long(CURLINFO_HTTP_VERSION) {
        case CURL_HTTP_VERSION_1_0: m.httpVersion = "1.0"
        case CURL_HTTP_VERSION_1_1: m.httpVersion = "1.1"
        case CURL_HTTP_VERSION_2_0: m.httpVersion = "2"
        case CURL_HTTP_VERSION_3: m.httpVersion = "3"
        default: m.httpVersion = nil
        }
        m.redirectCount = long(CURLINFO_REDIRECT_COUNT)
        var ip: UnsafeMutablePointer<CChar>?
        _ = ccurl_easy_getinfo_string(handle, CURLINFO_PRIMARY_IP, &ip)
        m.remoteAddress = ip.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        return m
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
public import Instrumentation
public import Logging
import WICore

extension CurlImageLoader {
    /// Everything a `CurlImageLoader` can be told, with SDWebImage's and URLSession's defaults.
    ///
    /// ```swift
    /// var configuration = CurlImageLoader.Configuration()
    /// configuration.addressPolicy = .publicOnly()       // an image service loading user-supplied URLs
    /// configuration.maximumBodySize = 16 << 20
    /// let loader = try CurlImageLoader(configuration: configuration)
    /// ```
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct Configuration: Sendable {
        /// Transfers running at once; the rest wait in the queue (default 6).
        public var maxConcurrentTransfers = 6
        /// Which queued transfer of equal priority starts next (default `.fifo`).
        public var executionOrder = ExecutionOrder.fifo
        /// Seconds allowed to establish a connection (default 10).
        public var connectTimeout: Double = 10
        /// A transfer fails when it moves fewer than `lowSpeedLimit` bytes per second for `lowSpeedTime` seconds
        /// (default 1,024 B/s for 15 s): catches both an idle server and a drip feed. Whole seconds (libcurl's unit).
        public var lowSpeedLimit = 1024
        public var lowSpeedTime = 15
        /// The total time limit of one transfer in seconds, or nil for none (the default).
        public var totalTimeout: Double?
        /// Minimum seconds between two progress events of a transfer (default 0.1); the last one is always sent.
        public var progressInterval: Double = 0.1

        /// The Accept header (default `image/*,*/*;q=0.8`); see `acceptHeader(for:)`.
        public var accept = "image/*,*/*;q=0.8"
        /// When set, the Accept header is `acceptHeader(for:)` of what this returns, asked once, when the loader
        /// first needs the header (its first transfer, or a request modifier's first look at the headers) rather
        /// than when the loader is made; `accept` is then not used. For coders whose formats cost something to
        /// learn: `{ coders.decodingFormats }` loads libheif and its codecs (about 7 ms) to ask what it decodes, a
        /// cost a process that finds every image in its caches never pays this way. Called on the loader's thread
        /// or on a caller's, once.
        public var acceptedFormats: (@Sendable () -> [ImageFormat])?
        /// The User-Agent header; nil (the default) for `defaultUserAgent`, made when the loader first needs it
        /// (it names libcurl's version, which loads libcurl).
        public var userAgent: String?
        /// Headers sent with every request (a request's own headers win).
        public var headers: [String: String] = [:]
        /// User name and password for servers that ask (any scheme libcurl supports: Basic, Digest, NTLM...).
        /// Never sent to another host after a redirect.
        public var credentials: Credentials?
        /// Accept TLS certificates that do not verify, for every request (per request: the
        /// `.allowInvalidSSLCertificates` option). Development only.
        public var allowInvalidSSLCertificates = false
        /// Send and store cookies for every request (per request: the `.handleCookies` option). The cookie jar
        /// lives in memory, shared by the loader's transfers.
        public var handleCookies = false
        /// Use HTTP/2 for https (multiplexed over one connection per host) when the server offers it (default on).
        public var allowsHTTP2 = true

        /// Status codes that count as success (default 200-299); others fail with 2001.
        public var acceptableStatusCodes: Set<Int> = Set(200...299)
        /// MIME types that count as success, or nil for any (the default). `image/*` matches every image type.
        /// Others fail with 2004.
        public var acceptableContentTypes: Set<String>?
        /// An HTTP proxy every transfer goes through (`http://host:port`; nil, the default: none, or the
        /// environment's http_proxy... when the address policy is `.unrestricted`). Under `.publicOnly` the proxy
        /// is trusted (its own address may be private) and each destination is still checked: the loader resolves
        /// the host of the URL, and of every redirect's `Location`, and refuses the transfer unless every address
        /// is allowed (as the proxy resolves names itself, a name that resolves differently for it is not caught).
        public var proxy: URL?
        /// The freshness lifetime, in seconds, given to HTTP answers that state none (no `Cache-Control` max-age,
        /// s-maxage, no-cache or no-store, no `Expires`), as `Cache-Control: max-age=N` (nil, the default: none,
        /// so HTTP caching revalidates them on every use). Unlike a response modifier it is not part of a
        /// request's identity: loads keep sharing.
        public var defaultMaxAge: Int?

        /// URL schemes the loader accepts and follows redirects to (default http and https; add "file" and "data"
        /// to load those). Other schemes fail with 2010.
        public var allowedSchemes: Set<String> = ["http", "https"]
        /// Redirects followed at most (default 10); more fail with 2009.
        public var maximumRedirects = 10
        /// The largest body accepted, in bytes (default 64 MB); enforced while the body streams in (2007).
        public var maximumBodySize: Int64 = 64 << 20
        /// Which addresses connections may go to (default `.unrestricted`).
        public var addressPolicy = AddressPolicy.unrestricted

        /// Retries of transient failures (default: none).
        public var retryPolicy = RetryPolicy.none
        /// Bytes of partial bodies kept for resuming cancelled transfers (default 32 MB; 0 turns resuming off).
        public var resumeDataBudget: Int64 = 32 << 20

        /// Receives failed transfers and retries at debug (default: a logger that prints nothing).
        public var logger: Logger = .webImageNoOp
        /// Injects a request's trace context (`ImageLoading.Request.serviceContext`) into its headers; nil (the
        /// default): the bootstrapped `InstrumentationSystem.instrument`.
        public var instrument: (any Instrument)?

        public init() {}

        /// The library and its version, and libcurl's: `WebImage/0.1.0 libcurl/7.88.1`. Loads libcurl to ask.
        public static var defaultUserAgent: String {
            "WebImage/\(CurlImageLoader.libraryVersion) libcurl/\(CurlLibrary.version)"
        }

        /// An Accept header listing `formats` first, in order, then any image and anything else:
        /// `acceptHeader(for: [.avif, .webp])` is `image/avif,image/webp,image/*,*/*;q=0.8`.
        public static func acceptHeader(for formats: [ImageFormat]) -> String {
            var seen = Set<String>()
            let types = formats.map(\.mimeType).filter { $0.hasPrefix("image/") && seen.insert($0).inserted }
            return (types + ["image/*", "*/*;q=0.8"]).joined(separator: ",")
        }
    }

    /// The order in which queued transfers of equal priority start.
    public enum ExecutionOrder: Sendable, Hashable {
        /// First queued, first started (SDWebImage's default).
        case fifo
        /// Last queued, first started: the newest request (e.g. the cell just scrolled into view) goes first.
        case lifo
    }

    /// A user name and password.
    public struct Credentials: Sendable, Hashable {
        public var user: String
        public var password: String
        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }
    }

    /// Which peer addresses a connection may go to. Checked on the address actually connected, for every
    /// connection including redirects, so a name that resolves differently the second time gains nothing.
    /// Under `.publicOnly` the loader ignores proxies from the environment (http_proxy...): through a proxy only
    /// the proxy's address could be checked.
    public enum AddressPolicy: Sendable, Hashable {
        /// Any address.
        case unrestricted
        /// Only public unicast addresses: refuses loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7),
        /// link-local (169.254/16, fe80::/10, which holds the cloud metadata address 169.254.169.254), CGNAT
        /// (100.64/10), multicast, 0.0.0.0/8, reserved and IPv4-mapped IPv6 addresses. `exceptions` lists
        /// addresses allowed anyway, as written by `inet_ntop` ("127.0.0.1", "::1").
        case publicOnly(exceptions: Set<String> = [])
    }

    /// When and how often to retry a transfer that failed for a transient reason: a network error, a timeout, or
    /// one of `retryableStatusCodes`. Waits `initialDelay`, then doubles up to `maximumDelay`.
    public struct RetryPolicy: Sendable, Hashable {
        public var maximumRetries: Int
        public var initialDelay: Double
        public var maximumDelay: Double
        public var retryableStatusCodes: Set<Int>

        public init(
            maximumRetries: Int, initialDelay: Double = 0.5, maximumDelay: Double = 10,
            retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]
        ) {
            self.maximumRetries = maximumRetries
            self.initialDelay = initialDelay
            self.maximumDelay = maximumDelay
            self.retryableStatusCodes = retryableStatusCodes
        }

        /// Never retry (the default).
        public static let none = RetryPolicy(maximumRetries: 0)

        /// Seconds to wait before retry number `attempt` (1-based).
        public func delay(beforeRetry attempt: Int) -> Double {
            min(maximumDelay, initialDelay * pow(2, Double(max(0, attempt - 1))))
        }
    }
}

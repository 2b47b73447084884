#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What makes two loads the same download: the request as it will be sent (URL, method and headers after the
/// request modifier), the transport options (TLS verification, cookies, progressive delivery), and the identity
/// of every context value that may change the bytes (the response modifier, the decryptor, the loader, plugin keys
/// declared `.request`). Every layer that shares work (the manager's tasks, a loader's transfers, the Redis single
/// flight) shares it only between requests of equal identity. A request holding a value that cannot be compared
/// (a closure-based response modifier or decryptor) is private: its identity equals no other.
///
/// ```swift
/// let a = ImageRequestIdentity(ImageLoadRequest(url: url, headers: ["Authorization": "Bearer A"]))
/// let b = ImageRequestIdentity(ImageLoadRequest(url: url, headers: ["Authorization": "Bearer B"]))
/// a == b   // false: the two callers never share a download
/// ```
///
/// Thread safety: a value type; safe to send and share.
public struct ImageRequestIdentity: Hashable, Sendable {
    /// The request as it will be sent, after the request modifier; nil when the modifier cancels it.
    public let request: ImageHTTPRequest?
    /// The URL asked for (two cancelled requests of different URLs stay apart).
    let asked: String
    /// The option bits that change the transfer.
    let transport: Int
    /// The identity of the context values declared `.request`, by key name.
    let context: [String: IdentityValue]
    /// Set for a private request: equal to no other identity.
    let unique: UUID?

    /// The options that change a transfer: cookies, TLS verification, progressive delivery, revalidation.
    static let transportOptions: ImageOptions = [
        .handleCookies, .allowInvalidSSLCertificates, .progressiveLoad, .refreshCached,
    ]

    /// The identity of `request` sent with `defaultHeaders` (a loader's own headers, which the request's and
    /// the request modifier's override). Runs the request modifier, on the calling thread.
    public init(_ request: ImageLoadRequest, defaultHeaders: [String: String] = [:]) {
        asked = request.url.absoluteString
        var http = ImageHTTPRequest(url: request.url, headers: defaultHeaders)
        if let etag = request.cachedETag { http.headers["If-None-Match"] = etag }
        if let date = request.cachedLastModified { http.headers["If-Modified-Since"] = date }
        http.headers.merge(request.headers) { $1 }
        if let modifier = request.context[.requestModifier] {
            self.request = modifier.modified(http).map {
                var sent = $0
                sent.method = sent.method.uppercased()
                return sent
            }
        } else {
            self.request = http
        }
        transport = request.options.intersection(Self.transportOptions).rawValue
        let context = request.context.identity(of: [.request])
        self.context = context ?? [:]
        unique = context == nil ? UUID() : nil
    }

    /// Whether this request shares work with no other (a value in its context cannot be compared).
    public var isPrivate: Bool { unique != nil }

    /// This identity made private: equal to no other.
    func makingPrivate() -> ImageRequestIdentity {
        ImageRequestIdentity(request: request, asked: asked, transport: transport, context: context, unique: UUID())
    }

    private init(request: ImageHTTPRequest?, asked: String, transport: Int, context: [String: IdentityValue],
                 unique: UUID?) {
        self.request = request
        self.asked = asked
        self.transport = transport
        self.context = context
        self.unique = unique
    }
}

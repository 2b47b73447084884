#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageLoading {
    /// What makes two loads the same download: the request as it will be sent (URL, method and headers after the
    /// request modifier), the transport options (TLS verification, cookies, progressive delivery), and the identity
    /// of every context value that may change the bytes (the response modifier, the decryptor, the loader, plugin keys
    /// declared `.request`). Every layer that shares work (the manager's tasks, a loader's transfers, the Redis single
    /// flight) shares it only between requests of equal identity. A request holding a value that cannot be compared
    /// (a closure-based response modifier or decryptor) is private: its identity equals no other.
    ///
    /// ```swift
    /// let a = ImageLoading.Identity(ImageLoading.Request(url: url, headers: ["Authorization": "Bearer A"]))
    /// let b = ImageLoading.Identity(ImageLoading.Request(url: url, headers: ["Authorization": "Bearer B"]))
    /// a == b   // false: the two callers never share a download
    /// ```
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct Identity: Hashable, Sendable {
        /// The fields, shared by every copy of one identity: a load hashes and compares its identity several times
        /// (the manager's task registries, a loader's transfers), and a copy compared with the value it was copied from
        /// is then equal at once, without comparing URLs and header dictionaries.
        private final class Fields: Sendable {
            let request: ImageLoading.HTTPRequest?
            let asked: String
            let transport: Int
            let context: [String: IdentityValue]
            let unique: UUID?
            /// The hash of the fields above, computed once.
            let hash: Int

            init(
                request: ImageLoading.HTTPRequest?, asked: String, transport: Int, context: [String: IdentityValue],
                unique: UUID?
            ) {
                self.request = request
                self.asked = asked
                self.transport = transport
                self.context = context
                self.unique = unique
                var hasher = Hasher()
                hasher.combine(request)
                hasher.combine(asked)
                hasher.combine(transport)
                hasher.combine(context)
                hasher.combine(unique)
                hash = hasher.finalize()
            }
        }

        private let fields: Fields

        /// The request as it will be sent, after the request modifier; nil when the modifier cancels it.
        public var request: ImageLoading.HTTPRequest? { fields.request }
        // The other fields: the URL asked for (two cancelled requests of different URLs stay apart), the option bits
        // that change the transfer, the identity of the context values declared `.request` by key name, and for a
        // private request a UUID that makes it equal to no other identity.

        /// The options that change a transfer: cookies, TLS verification, progressive delivery, revalidation.
        static let transportOptions: ImageOptions = [
            .handleCookies, .allowInvalidSSLCertificates, .progressiveLoad, .refreshCached,
        ]

        /// The identity of `request` sent with `defaultHeaders` (a loader's own headers, which the request's and
        /// the request modifier's override). Runs the request modifier, on the calling thread.
        public init(_ request: ImageLoading.Request, defaultHeaders: [String: String] = [:]) {
            var http = ImageLoading.HTTPRequest(url: request.url, headers: defaultHeaders)
            if let etag = request.cachedETag { http.headers["If-None-Match"] = etag }
            if let date = request.cachedLastModified { http.headers["If-Modified-Since"] = date }
            // A plain request sends the defaults as they are: no copy of the loader's dictionary.
            if !request.headers.isEmpty { http.headers.merge(request.headers) { $1 } }
            var sent: ImageLoading.HTTPRequest? = http
            if let modifier = request.context[.requestModifier] {
                sent = modifier.modified(http).map {
                    var sent = $0
                    sent.method = sent.method.uppercased()
                    return sent
                }
            }
            let context = request.context.identity(of: [.request])
            self.init(
                request: sent, asked: request.url.absoluteString,
                transport: request.options.intersection(Self.transportOptions).rawValue, context: context ?? [:],
                unique: context == nil ? UUID() : nil)
        }

        /// Whether this request shares work with no other (a value in its context cannot be compared).
        public var isPrivate: Bool { fields.unique != nil }

        /// This identity made private: equal to no other.
        func makingPrivate() -> ImageLoading.Identity {
            ImageLoading.Identity(
                request: fields.request, asked: fields.asked, transport: fields.transport,
                context: fields.context, unique: UUID())
        }

        private init(
            request: ImageLoading.HTTPRequest?, asked: String, transport: Int, context: [String: IdentityValue],
            unique: UUID?
        ) {
            fields = Fields(request: request, asked: asked, transport: transport, context: context, unique: unique)
        }

        /// Whether the two are the same request (copies of one identity at once; else the stored hashes first).
        public static func == (a: ImageLoading.Identity, b: ImageLoading.Identity) -> Bool {
            let (x, y) = (a.fields, b.fields)
            return x === y
                || (x.hash == y.hash && x.unique == y.unique && x.transport == y.transport && x.asked == y.asked
                    && x.request == y.request && x.context == y.context)
        }

        /// Feeds the hash computed at init.
        public func hash(into hasher: inout Hasher) { hasher.combine(fields.hash) }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import Tracing
import Synchronization

extension ImageLoading {
    /// What to load and how.
    ///
    /// Thread safety: a value type (its cancellation relay is thread-safe); safe to send and share.
    public struct Request: Sendable {
        /// The URL to load.
        public var url: URL
        /// The load's options (progressive, cookies, invalid certificates...).
        public var options: ImageOptions
        /// The load's context (request/response modifiers, decryptor...).
        public var context: ImageContext
        /// How urgently to run it.
        public var priority: ImageLoading.Priority
        /// Headers added to the loader's defaults (HTTP loaders).
        public var headers: [String: String]
        /// The cached copy's ETag, sent as If-None-Match when revalidating. With it (or `cachedLastModified`) an HTTP
        /// loader answers a 304 with success: an empty `data` and the response head (status 304).
        public var cachedETag: String?
        /// The cached copy's Last-Modified, sent as If-Modified-Since when revalidating.
        public var cachedLastModified: String?
        /// The key the manager caches this URL's bytes under (partition included), nil when they are not cached: a
        /// loader that shares bytes through a cache (the Redis single flight) uses it.
        public var cacheKey: String?
        /// The order in which the request was handed over (the manager numbers its calls when they are made, before
        /// any asynchronous step); a loader that queues orders by it, so FIFO and LIFO follow the callers' order even
        /// when the requests reach it out of order. Nil: the order of arrival.
        public var handoverOrder: UInt64?
        /// The trace context of the download (the manager's `webimage.download` span), for a loader to pass on to the
        /// server with the bootstrapped instrument's `inject`. Not part of the request's identity.
        public var serviceContext: ServiceContext?

        public init(
            url: URL, options: ImageOptions = [], context: ImageContext = .init(),
            priority: ImageLoading.Priority? = nil, headers: [String: String] = [:], cacheKey: String? = nil
        ) {
            self.url = url
            self.options = options
            self.context = context
            self.priority = priority ?? ImageLoading.Priority(options)
            self.headers = headers
            self.cacheKey = cacheKey
        }

        /// The plain request for the same URL: a GET with none of this request's headers, validators, options or
        /// context values but its cache partition and loader (and progressive delivery, which does not change the
        /// bytes). When a loader gives both the same identity, the bytes are anyone's for the URL (a fleet-wide
        /// single flight may share them).
        public var plain: ImageLoading.Request {
            var context = ImageContext()
            context[.cachePartition] = self.context[.cachePartition]
            context[.imageLoader] = self.context[.imageLoader]
            return ImageLoading.Request(
                url: url, options: options.intersection(.progressiveLoad), context: context,
                priority: priority, cacheKey: cacheKey)
        }

        /// Whether the loader should send `.partialData` events (progressive decoding).
        public var wantsPartialData: Bool { options.contains(.progressiveLoad) }

        /// Whether the request carries validators (a revalidation): a 304 is then its successful, bodiless answer.
        public var isConditional: Bool { cachedETag != nil || cachedLastModified != nil }
    }
}

extension ImageLoading {
    /// The head of a response: known before the body arrives.
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct ResponseHead: Sendable {
        /// The URL that answered (after redirects).
        public var url: URL
        /// The HTTP status code (nil for non-HTTP loaders).
        public var statusCode: Int?
        /// Response headers, names lowercased.
        public var headers: [String: String]
        /// The announced body length, or -1 when unknown.
        public var expectedContentLength: Int64

        public init(url: URL, statusCode: Int?, headers: [String: String], expectedContentLength: Int64) {
            self.url = url
            self.statusCode = statusCode
            self.headers = headers
            self.expectedContentLength = expectedContentLength
        }

        /// The MIME type from Content-Type, lowercased, without parameters.
        public var mimeType: String? {
            headers["content-type"].map { $0.split(separator: ";")[0].trimmingSpacesAndTabs().lowercased() }
        }
    }
}

extension ImageLoading {
    /// Something that happened during a load, before it completed.
    public enum Event: Sendable {
        /// The response head arrived; also sent, just before the failure, for a head refused for its status or
        /// content type, so the caller sees what the server answered.
        case response(ImageLoading.ResponseHead)
        /// Bytes received so far and the expected total (-1 when unknown). Starts with (0, -1).
        case progress(received: Int64, expected: Int64)
        /// The next chunk of the body (only when the request wants partial data).
        case partialData(Data)
    }
}

extension ImageLoading {
    /// Timing and transport facts about one transfer.
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct Metrics: Sendable, Hashable {
        /// Seconds spent on name lookup, connecting, the TLS handshake; until the first byte; in total.
        public var dnsDuration: Double = 0
        public var connectDuration: Double = 0
        public var tlsDuration: Double = 0
        public var timeToFirstByte: Double = 0
        public var totalDuration: Double = 0
        /// Body bytes received.
        public var bytesReceived: Int64 = 0
        /// "1.1", "2"...
        public var httpVersion: String?
        /// Redirects followed.
        public var redirectCount: Int = 0
        /// The peer's IP address.
        public var remoteAddress: String?

        public init() {}
    }
}

/// A finished load: the bytes and what is known about them.
///
/// Thread safety: a value type; safe to send and share.
public struct ImageLoadResult: Sendable {
    /// The body (after any decryptor).
    public var data: Data
    /// The response head (nil for loaders without one).
    public var response: ImageLoading.ResponseHead?
    /// Transfer metrics, when the loader measures them.
    public var metrics: ImageLoading.Metrics?

    public init(data: Data, response: ImageLoading.ResponseHead? = nil, metrics: ImageLoading.Metrics? = nil) {
        self.data = data
        self.response = response
        self.metrics = metrics
    }
}

/// Forwards a cancellation that may arrive before or after the operation it targets exists.
///
/// Thread safety: `cancel` and `onCancel` may race; the handler runs exactly once if cancelled.
package final class CancellationRelay: Sendable {
    private let state = Mutex<(cancelled: Bool, handler: (@Sendable () -> Void)?)>((false, nil))

    package init() {}

    package func cancel() {
        let handler = state.withLock { s -> (@Sendable () -> Void)? in
            s.cancelled = true
            defer { s.handler = nil }
            return s.handler
        }
        handler?()
    }

    package func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { s -> Bool in
            if s.cancelled { return true }
            s.handler = handler
            return false
        }
        if runNow { handler() }
    }
}

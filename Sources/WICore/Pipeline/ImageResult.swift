#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a load produced.
///
/// Thread safety: a value type; safe to send and share.
public struct ImageResult: Sendable {
    /// The image (a thumbnail or transformed image when asked for).
    public var image: Image
    /// The bytes the image came from, when known (downloaded, or read from a data cache); nil when the image is
    /// a thumbnail or was transformed (the bytes no longer describe it).
    public var data: Data?
    /// Where it came from: `.none` for the loader, `.memory` or `.disk` for a cache.
    public var cacheType: ImageCacheType
    /// The URL that was requested.
    public var url: URL
    /// Transfer metrics when the loader ran.
    public var metrics: ImageLoading.Metrics?
    /// How HTTP caching decided this answer (fresh, stale, revalidated, replaced); nil when no cached entry was
    /// judged (`.httpCachePolicy` `.ignore`, or nothing was cached).
    public var httpCacheOutcome: ImageResult.HTTPCacheOutcome?
    /// The bytes the image was made from, even when `data` is nil: the download, or the cache entry read (for a
    /// thumbnail or transform found under its own key, that entry's own bytes). Revalidation compares them.
    public internal(set) var sourceData: Data?
    /// The HTTP cache info of the cached entry the answer came from (`.refreshCached` revalidates with it).
    package var httpCacheInfo: HTTPCacheInfo?

    public init(image: Image, data: Data?, cacheType: ImageCacheType, url: URL, metrics: ImageLoading.Metrics? = nil) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
        self.url = url
        self.metrics = metrics
        sourceData = data
    }

    init(
        image: Image, data: Data?, cacheType: ImageCacheType, url: URL, metrics: ImageLoading.Metrics? = nil,
        sourceData: Data?, httpCacheInfo: HTTPCacheInfo? = nil
    ) {
        self.init(image: image, data: data, cacheType: cacheType, url: url, metrics: metrics)
        self.sourceData = sourceData
        self.httpCacheInfo = httpCacheInfo
    }
}

extension ImageLoading {
    /// Progress of one load, for the callback form and observers.
    public enum Progress: Sendable {
        /// Bytes received so far and the expected total (-1 when unknown).
        case bytes(received: Int64, expected: Int64)
        /// A partial image from a progressive load (flagged `.incremental`; never cached).
        case partialImage(Image)
    }
}

/// Rewrites the options and context of each load before it starts (SDWebImage's `SDWebImageOptionsProcessor`).
///
/// Thread safety: called from any thread; implementations must be `Sendable`.
public protocol ImageOptionsProcessor: Sendable {
    /// The options and context to use for `url`, or nil to keep them.
    func process(url: URL, options: ImageOptions, context: ImageContext) -> (ImageOptions, ImageContext)?
}

extension ImageManager {
    /// An options processor from a closure.
    public struct BlockOptionsProcessor: ImageOptionsProcessor {
        private let body: @Sendable (URL, ImageOptions, ImageContext) -> (ImageOptions, ImageContext)?
        public init(_ body: @escaping @Sendable (URL, ImageOptions, ImageContext) -> (ImageOptions, ImageContext)?) {
            self.body = body
        }
        public func process(url: URL, options: ImageOptions, context: ImageContext) -> (ImageOptions, ImageContext)? {
            body(url, options, context)
        }
    }
}

/// Decisions an app makes for the manager (SDWebImage's `SDWebImageManagerDelegate`).
///
/// Thread safety: called from any thread; implementations must be `Sendable`.
public protocol ImageManagerDelegate: Sendable {
    /// Whether to load `url` after a cache miss (default true). Returning false fails the load with `.loadSkipped`.
    func shouldLoad(_ url: URL) -> Bool
    /// Whether this failure puts `url` on the failed-URL list; nil leaves the decision to the loader.
    func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool?
}

extension ImageManagerDelegate {
    public func shouldLoad(_ url: URL) -> Bool { true }
    public func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool? { nil }
}

extension ImageError.Code {
    /// Not in the cache, and loading was not allowed (`.fromCacheOnly`, or the delegate said no).
    public static let loadSkipped = ImageError.Code(rawValue: 1008)
}

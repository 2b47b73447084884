/// Switches that change how one load behaves (SDWebImage's `SDWebImageOptions`).
///
/// Thread safety: a value type; safe to send and share.
public struct ImageOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Load even if the URL failed before and is on the failed-URL list.
    public static let retryFailed = ImageOptions(rawValue: 1 << 0)
    /// Queue behind normal requests.
    public static let lowPriority = ImageOptions(rawValue: 1 << 1)
    /// Queue ahead of normal requests.
    public static let highPriority = ImageOptions(rawValue: 1 << 2)
    /// Deliver partial images while the data arrives.
    public static let progressiveLoad = ImageOptions(rawValue: 1 << 3)
    /// Deliver the cached image, then revalidate with the server; call back again only if it changed.
    public static let refreshCached = ImageOptions(rawValue: 1 << 4)
    /// Send and store cookies.
    public static let handleCookies = ImageOptions(rawValue: 1 << 5)
    /// Accept TLS certificates that do not verify (for development servers only).
    public static let allowInvalidSSLCertificates = ImageOptions(rawValue: 1 << 6)
    /// Apply the transformer to every frame of an animated image (by default animations are not transformed).
    public static let transformAnimatedImage = ImageOptions(rawValue: 1 << 7)
    /// Decode large images scaled down to the context's scale-down limit (default 60 MB of pixels).
    public static let scaleDownLargeImages = ImageOptions(rawValue: 1 << 8)
    /// Query the data cache even when the memory cache hits (to deliver the bytes too).
    public static let queryMemoryData = ImageOptions(rawValue: 1 << 9)
    /// With `queryMemoryData`: read the data synchronously.
    public static let queryMemoryDataSync = ImageOptions(rawValue: 1 << 10)
    /// Read the disk cache synchronously on the calling thread (for callers that can block).
    public static let queryDiskDataSync = ImageOptions(rawValue: 1 << 11)
    /// Never use the loader: a cache miss fails.
    public static let fromCacheOnly = ImageOptions(rawValue: 1 << 12)
    /// Never query the caches (results are still stored).
    public static let fromLoaderOnly = ImageOptions(rawValue: 1 << 13)
    /// Decode only the first frame of an animation.
    public static let decodeFirstFrameOnly = ImageOptions(rawValue: 1 << 14)
    /// Decode every frame of an animation up front instead of on demand into a bounded frame buffer
    /// (`DecodeOptions.preloadAllFrames`).
    public static let preloadAllFrames = ImageOptions(rawValue: 1 << 15)
    /// Complete only after the result is written to the caches.
    public static let waitStoreCache = ImageOptions(rawValue: 1 << 16)
    /// Do not put the result into any cache.
    public static let avoidStoreCache = ImageOptions(rawValue: 1 << 17)
    /// Target binding: show the placeholder only if the load fails, not while it runs.
    public static let delayPlaceholder = ImageOptions(rawValue: 1 << 18)
    /// Target binding: do not show the result; the completion handler decides.
    public static let avoidAutoSetImage = ImageOptions(rawValue: 1 << 19)
}

extension ImageLoading {
    /// How urgently a request should run; the maximum over all callers sharing work wins.
    ///
    /// Thread safety: a value type; safe to send and share.
    public enum Priority: Int, Comparable, Hashable, Sendable, CaseIterable {
        case low = 0
        case normal = 1
        case high = 2

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The priority `options` ask for.
        public init(_ options: ImageOptions) {
            self = options.contains(.highPriority) ? .high : options.contains(.lowPriority) ? .low : .normal
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Metrics
import Logging
import Tracing

extension ImageManager {
    /// What a manager is made of: its cache, loader and coders, and what it adds to every load.
    ///
    /// ```swift
    /// var configuration = ImageManager.Configuration(cache: cache, loader: loader, coders: coders)
    /// configuration.logger = logger
    /// let manager = ImageManager(configuration: configuration)
    /// ```
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct Configuration: Sendable {
        /// The cache queried and stored into (per request: `context[.imageCache]`).
        public var cache: any ImageCache
        /// Loads on a cache miss (per request: `context[.imageLoader]`).
        public var loader: any ImageLoader
        /// Decodes loaded bytes (per request: `context[.imageCoder]`).
        public var coders: any ImageCoder
        /// Applied to every load without its own `context[.imageTransformer]`.
        public var transformer: (any ImageTransformer)? = nil
        /// Turns URLs into cache keys when the context has none.
        public var cacheKeyFilter: (any CacheKeyFilter)? = nil
        /// Chooses the bytes stored in data caches when the context has none.
        public var cacheSerializer: (any CacheSerializer)? = nil
        /// Rewrites options and context of every load.
        public var optionsProcessor: (any ImageOptionsProcessor)? = nil
        /// The app's decisions about loading and failed URLs.
        public var delegate: (any ImageManagerDelegate)? = nil
        /// Where decoding and transforms run; nil: a pool of one thread per core that the manager makes and owns.
        public var cpuPool: WorkerPool? = nil
        /// Components whose `shutdown()` the manager's `shutdown()` calls (those made for it alone:
        /// `WebImage.makeManager()` passes its loader and cache).
        public var owning: [any ShutdownCapable] = []
        /// Per-load messages at trace and debug (per load: `context[.logger]`), warnings for what the manager drops.
        public var logger: Logger = .webImageNoOp
        /// The pinned metrics and spans (`ImageManager.TelemetryNames`); by default the ones bootstrapped when the
        /// configuration is made.
        public var metrics: any MetricsFactory = MetricsSystem.factory
        public var tracer: any Tracer = InstrumentationSystem.tracer
        /// The wall clock HTTP freshness (`.httpCachePolicy`) is judged by; tests drive it.
        public var now: @Sendable () -> Date = { Date() }

        public init(cache: any ImageCache, loader: any ImageLoader, coders: any ImageCoder) {
            self.cache = cache
            self.loader = loader
            self.coders = coders
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Metrics
import Synchronization
import Tracing

/// Turns a URL into an image through caches, a loader, coders and transformers (SDWebImage's
/// `SDWebImageManager`, with Nuke-style coalescing).
///
/// A load queries the cache (final key, then the original key for thumbnails and transforms), loads on a miss,
/// decodes, transforms and stores. Identical in-flight requests share one query and load; requests that differ
/// only in thumbnail size or transformer share the load, and each distinct decode or transform runs once. Each
/// caller can cancel only itself; shared work stops when its last caller leaves.
///
/// ```swift
/// let manager = ImageManager(cache: cache, loader: loaders, coders: coders)
/// var context = ImageContext()
/// context[.thumbnailPixelSize] = PixelSize(width: 256, height: 256)
/// let result = try await manager.loadImage(with: url, context: context)
/// ```
///
/// Thread safety: every method may be called from any task or thread at once.
public final class ImageManager: Sendable {
    /// The cache queried and stored into (per request: `context[.imageCache]`).
    public let cache: any ImageCache
    /// Loads on a cache miss (per request: `context[.imageLoader]`).
    public let loader: any ImageLoader
    /// Decodes loaded bytes (per request: `context[.imageCoder]`).
    public let coders: any ImageCoder
    /// Applied to every load without its own `context[.imageTransformer]`.
    public let transformer: (any ImageTransformer)?
    /// Turns URLs into cache keys when the context has none.
    public let cacheKeyFilter: (any CacheKeyFilter)?
    /// Chooses the bytes stored in data caches when the context has none.
    public let cacheSerializer: (any CacheSerializer)?
    /// Rewrites options and context of every load.
    public let optionsProcessor: (any ImageOptionsProcessor)?
    /// The app's decisions about loading and failed URLs.
    public let delegate: (any ImageManagerDelegate)?

    let failedURLs = Mutex<Set<String>>([])
    let imageTasks = WorkRegistry<ImageTaskKey, ImageResult, ImageTaskEvent>()
    let loadTasks = WorkRegistry<LoadKey, ImageLoadResult, ImageLoading.Event>()
    let decodeTasks = WorkRegistry<DecodeKey, Image, Never>()
    let transformTasks = WorkRegistry<TransformKey, Image, Never>()
    let observers = Mutex<[Int: AsyncStream<ImageManager.Event>.Continuation]>([:])
    let nextObserverID = Mutex(0)
    package let cpuPool: WorkerPool
    /// Every load from the moment its call returns, and every background store and revalidation.
    let tracker = WorkTracker()
    /// What `shutdown()` ends after the work: the components the manager was given to own, and its own pool.
    let owned: [any ShutdownCapable]
    let shutdownOnce = AsyncOnce()
    /// Numbers calls in the order they are made (`ImageLoading.Request.handoverOrder`).
    let handovers = Atomic<UInt64>(0)
    /// Logger, metric objects (made once here) and tracer.
    let telemetry: ImageTelemetry
    /// The wall clock HTTP freshness is judged by.
    let now: @Sendable () -> Date
    /// Background revalidations in flight, by image task, with the callers waiting for their outcome.
    let revalidations = Mutex<[ImageTaskKey: [RefreshWaiter]]>([:])
    /// `httpCacheStatistics`.
    let httpCounts = Mutex(ImageManager.HTTPCacheStatistics())
    /// The identities of `loader` and `coders`, worked out once (a dynamic cast each): every load without a loader
    /// or coder of its own in its context uses these.
    let ownIdentities: (loader: IdentityValue?, coders: IdentityValue?)

    /// A manager made as `configuration` says.
    public init(configuration: Configuration) {
        cache = configuration.cache
        loader = configuration.loader
        coders = configuration.coders
        transformer = configuration.transformer
        cacheKeyFilter = configuration.cacheKeyFilter
        cacheSerializer = configuration.cacheSerializer
        optionsProcessor = configuration.optionsProcessor
        delegate = configuration.delegate
        let pool = configuration.cpuPool ?? WorkerPool.cpu()
        cpuPool = pool
        owned = configuration.owning + (configuration.cpuPool == nil ? [pool] : [])
        telemetry = ImageTelemetry(
            logger: configuration.logger, metrics: configuration.metrics, tracer: configuration.tracer)
        now = configuration.now
        ownIdentities = (ComponentIdentity.of(configuration.loader), ComponentIdentity.of(configuration.coders))
    }

    /// A manager over `cache`, `loader` and `coders`, everything else as `Configuration` has it by default.
    public convenience init(cache: any ImageCache, loader: any ImageLoader, coders: any ImageCoder) {
        self.init(configuration: Configuration(cache: cache, loader: loader, coders: coders))
    }

    /// The 14 parameters of `Configuration` as arguments.
    @available(*, deprecated, message: "use init(configuration:) (or init(cache:loader:coders:))")
    public convenience init(
        cache: any ImageCache, loader: any ImageLoader, coders: any ImageCoder,
        transformer: (any ImageTransformer)? = nil, cacheKeyFilter: (any CacheKeyFilter)? = nil,
        cacheSerializer: (any CacheSerializer)? = nil, optionsProcessor: (any ImageOptionsProcessor)? = nil,
        delegate: (any ImageManagerDelegate)? = nil, cpuPool: WorkerPool? = nil, owning: [any ShutdownCapable] = [],
        logger: Logger = .webImageNoOp, metrics: any MetricsFactory = MetricsSystem.factory,
        tracer: any Tracer = InstrumentationSystem.tracer, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        var configuration = Configuration(cache: cache, loader: loader, coders: coders)
        configuration.transformer = transformer
        configuration.cacheKeyFilter = cacheKeyFilter
        configuration.cacheSerializer = cacheSerializer
        configuration.optionsProcessor = optionsProcessor
        configuration.delegate = delegate
        configuration.cpuPool = cpuPool
        configuration.owning = owning
        configuration.logger = logger
        configuration.metrics = metrics
        configuration.tracer = tracer
        configuration.now = now
        self.init(configuration: configuration)
    }

    // MARK: Loading

    /// Loads the image for `url`; throws `ImageError` (1000 invalid URL, 1003 blocked, 1004 no coder for the
    /// bytes, 2002 cancelled, 1010 shut down, loader and decode errors). Cancelling the calling task, or
    /// `cancelAll()`, cancels this caller only.
    ///
    /// With `.refreshCached`, a cached image is returned at once and the URL is revalidated in the background with
    /// the entry's stored validators (a 304 renews the entry; new bytes replace it in every tier; the work counts
    /// for `isRunning`); with `.waitStoreCache` too, the call returns after the revalidation: the cached image
    /// (`httpCacheOutcome` `.revalidated`) or the new one (`.replaced`). `context[.httpCachePolicy]` decides whether a cached entry is used, revalidated first, or
    /// used while revalidated in the background.
    /// Progress and partial images: use the callback form, or observe `events()`.
    public func loadImage(with url: URL?, options: ImageOptions = [], context: ImageContext = .init())
        async throws(ImageError)
        -> ImageResult
    {
        try await load(
            url, options: options, context: context, order: nextHandover(),
            caller: Caller(cancellation: WaiterCancellation())
        ).get()
    }

    /// The cache key `url` gets with `context` (filter, thumbnail part, transformer part), or nil when the key
    /// filter says not to cache.
    public func cacheKey(for url: URL, options: ImageOptions = [], context: ImageContext = .init()) -> String? {
        guard let request = try? resolve(url: url, options: options, context: context) else { return nil }
        return request.finalKey
    }

    /// How many image tasks wait on downloads in flight (tests wait for callers to have joined a download).
    package var downloadWaiterCount: Int { loadTasks.totalWaiterCount }
    /// How many callers wait on image tasks in flight (tests wait for callers to have joined).
    package var imageTaskWaiterCount: Int { imageTasks.totalWaiterCount }
    /// How many image tasks wait on decodes, and on transform steps, in flight.
    package var decodeWaiterCount: Int { decodeTasks.totalWaiterCount }
    package var transformWaiterCount: Int { transformTasks.totalWaiterCount }

    /// The next call's handover number.
    func nextHandover() -> UInt64 { handovers.add(1, ordering: .relaxed).newValue }

    // MARK: Failed URLs

    /// Whether `url` is on the failed-URL list.
    public func isFailedURL(_ url: URL) -> Bool { failedURLs.withLock { $0.contains(url.absoluteString) } }
    /// Takes `url` off the failed-URL list.
    public func removeFailedURL(_ url: URL) { _ = failedURLs.withLock { $0.remove(url.absoluteString) } }
    /// Empties the failed-URL list.
    public func removeAllFailedURLs() { failedURLs.withLock { $0.removeAll() } }

    // MARK: Running work

    /// Cancels every load whose call has returned and that has not completed; each caller gets 2002 once.
    /// Background stores and revalidations go on.
    public func cancelAll() { tracker.cancelAll() }
    /// Whether any load is in flight (true from the moment a `loadImage` call returns or starts waiting), or a
    /// background store or revalidation is still running.
    public var isRunning: Bool { tracker.isRunning }

    /// Returns once no load, background store or revalidation is running (at once when none is).
    public func waitUntilIdle() async { await tracker.waitUntilIdle() }

    /// How many shared works of each stage were started so far (loads, decodes, transforms): for tests and stats.
    public var statistics: Statistics {
        Statistics(
            loads: loadTasks.startedCount, decodes: decodeTasks.startedCount, transforms: transformTasks.startedCount)
    }

    /// How many shared works of each stage a manager started (``ImageManager/statistics``): requests that joined
    /// work in flight count once.
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct Statistics: Sendable, Hashable {
        /// Downloads started.
        public var loads: Int
        /// Decodes started.
        public var decodes: Int
        /// Transformer steps started.
        public var transforms: Int

        public init(loads: Int, decodes: Int, transforms: Int) {
            self.loads = loads
            self.decodes = decodes
            self.transforms = transforms
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WICore

/// Makes a fleet load each URL from the origin once: a loader wrapper that takes a short Redis lease before it
/// loads, so that of all the processes missing the same URL at the same moment only one goes to the origin.
///
/// For each load it sends `SET <namespace>l:<key> <token> NX PX <leaseDuration>` and `GET <namespace>d:<key>` in one
/// round trip. With the lease and no entry, it loads through the wrapped loader, stores the bytes under the key
/// (the same entry `RedisCache` serves as a data tier) and then releases the lease (compare-and-delete, so an
/// expired lease taken over by another process stays theirs). Without the lease, it polls every `pollInterval`
/// (re-trying the lease each time) and returns the stored bytes as its load result as soon as they appear; after
/// `maxWait` it loads by itself. When Redis is unavailable it loads at once: Redis never fails a load.
///
/// ```swift
/// let redis = try RedisCache(configuration: .init(host: "cache.internal"))
/// let loader = RedisSingleFlightLoader(wrapping: try CurlImageLoader(), redis: redis)
/// let manager = ImageManager(cache: TieredImageCache(memory: memory, dataTiers: [disk, redis], coders: coders),
///                            loader: loader, coders: coders)
/// ```
///
/// Only plain requests share: a request whose identity (`ImageLoading.Identity`, as the wrapped loader sees it)
/// differs from its URL's plain GET (extra or modified headers such as Authorization, cookies, insecure TLS, a
/// response modifier or decryptor) loads straight from the origin and never reads another process's entry.
/// The key is the request's `cacheKey` (the manager's source key, partition included), or `keyFor`'s.
/// `keyFor` must give the key the image manager caches the URL's bytes under (its default matches a manager
/// without a cache key filter), so that the tier's entry and the loader's entry are one. Revalidations
/// (requests with validators) pass straight through. A waiting process's result has the bytes but no response
/// head.
///
/// Thread safety: every method may be called from any number of threads at once.
public final class RedisSingleFlightLoader: ImageLoader, ShutdownCapable, Sendable {
    /// The loader that goes to the origin.
    public let wrapped: any ImageLoader
    /// The tier holding leases and entries.
    public let redis: RedisCache
    /// How long a lease lasts when its holder never releases it (a crash). 10 s.
    public let leaseDuration: Duration
    /// How often a waiting load looks for the entry. 20 ms.
    public let pollInterval: Duration
    /// How long a load waits for another process before it loads by itself. The lease duration by default.
    public let maxWait: Duration
    private let keyFor: @Sendable (URL) -> String?
    private let ioPool: WorkerPool
    private let ownsPool: Bool
    private let leaseAttempts = Atomic(0)

    /// Lease attempts made so far (a waiting load makes one per poll): tests wait on it instead of on time.
    package var leaseAttemptCount: Int { leaseAttempts.load(ordering: .relaxed) }

    /// Wraps `loader`; `keyFor` turns a URL into the cache key when a request carries none (nil: load without a
    /// lease). Blocking Redis calls run on `ioPool` (nil: a pool of the loader's own, ended by `shutdown()`).
    public init(
        wrapping loader: any ImageLoader, redis: RedisCache, leaseDuration: Duration = .seconds(10),
        pollInterval: Duration = .milliseconds(20), maxWait: Duration? = nil, ioPool: WorkerPool? = nil,
        keyFor: @escaping @Sendable (URL) -> String? = { $0.absoluteString }
    ) {
        wrapped = loader
        self.redis = redis
        self.leaseDuration = leaseDuration
        self.pollInterval = pollInterval
        self.maxWait = maxWait ?? leaseDuration
        self.keyFor = keyFor
        self.ioPool = ioPool ?? WorkerPool(name: "wi.redis", threads: 4)
        ownsPool = ioPool == nil
    }

    public func canLoad(_ url: URL) -> Bool { wrapped.canLoad(url) }

    public func identity(of request: ImageLoading.Request) -> ImageLoading.Identity { wrapped.identity(of: request) }

    /// Ends the loader's own I/O pool (the wrapped loader and the tier are shut down by their owners).
    public func shutdown() async {
        if ownsPool { ioPool.shutdown() }
    }

    public func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool {
        wrapped.shouldBlockFailedURL(url, error: error)
    }

    public func load(
        _ request: ImageLoading.Request, events: @escaping @Sendable (ImageLoading.Event) -> Void,
        completion: @escaping @Sendable (Result<ImageLoadResult, ImageError>) -> Void
    ) -> any ImageLoading.Operation {
        let operation = SingleFlightOperation(completion)
        let revalidation = request.isConditional
        let plain = wrapped.identity(of: request) == wrapped.identity(of: request.plain)
        guard !revalidation, plain, let key = request.cacheKey ?? keyFor(request.url) else {
            startOrigin(request, events: events, operation: operation, lease: nil)
            return operation
        }
        operation.attach(Task { await self.run(request, key: key, events: events, operation: operation) })
        return operation
    }

    /// Takes the lease, or waits for the entry, or gives up waiting.
    private func run(
        _ request: ImageLoading.Request, key: String, events: @escaping @Sendable (ImageLoading.Event) -> Void,
        operation: SingleFlightOperation
    ) async {
        let (redis, duration) = (self.redis, leaseDuration)
        let deadline = ContinuousClock.now + maxWait
        while !operation.isCancelled {
            let attempt = await ioPool.run { () -> Result<RedisCache.LeaseAttempt, ImageError> in
                Result { () throws(ImageError) in try redis.attemptLease(forKey: key, duration: duration) }
            }
            leaseAttempts.add(1, ordering: .relaxed)
            switch attempt {
            case .failure:
                return startOrigin(request, events: events, operation: operation, lease: nil)
            case .success(.stored(let data)):
                events(.progress(received: 0, expected: -1))
                events(.progress(received: Int64(data.count), expected: Int64(data.count)))
                return operation.finish(.success(ImageLoadResult(data: data)))
            case .success(.acquired(let token)):
                return startOrigin(request, events: events, operation: operation, lease: (key, token))
            case .success(.heldElsewhere):
                guard ContinuousClock.now < deadline else {
                    return startOrigin(request, events: events, operation: operation, lease: nil)
                }
                try? await Task.sleep(for: pollInterval)
            }
        }
    }

    /// Loads through the wrapped loader; with a lease, stores the bytes and releases the lease before finishing.
    private func startOrigin(
        _ request: ImageLoading.Request, events: @escaping @Sendable (ImageLoading.Event) -> Void,
        operation: SingleFlightOperation, lease: (key: String, token: String)?
    ) {
        let (redis, ioPool) = (self.redis, self.ioPool)
        let inner = wrapped.load(request, events: events) { result in
            guard let lease else { return operation.finish(result) }
            ioPool.execute {
                try? redis.storeAndReleaseLease(try? result.get().data, forKey: lease.key, token: lease.token)
                operation.finish(result)
            }
        }
        operation.setInner(inner)
    }
}

/// The operation a `RedisSingleFlightLoader` hands out: cancels the wait or the origin load, whichever runs.
///
/// Thread safety: its state is under one Mutex; the completion runs at most once.
final class SingleFlightOperation: ImageLoading.Operation, Sendable {
    private struct State {
        var cancelled = false
        var inner: (any ImageLoading.Operation)?
        var task: Task<Void, Never>?
        var priority: ImageLoading.Priority?
    }

    private let state = Mutex(State())
    private let completion: OnceCallback<Result<ImageLoadResult, ImageError>>

    init(_ completion: @escaping @Sendable (Result<ImageLoadResult, ImageError>) -> Void) {
        self.completion = OnceCallback(completion)
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func finish(_ result: Result<ImageLoadResult, ImageError>) { completion.call(result) }

    func attach(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    /// Hands over the origin load (cancelled at once if the caller already left).
    func setInner(_ inner: any ImageLoading.Operation) {
        let (cancelled, priority) = state.withLock { state in
            state.inner = inner
            return (state.cancelled, state.priority)
        }
        if let priority { inner.setPriority(priority) }
        if cancelled { inner.cancel() }
    }

    func cancel() {
        let (inner, task) = state.withLock { state in
            state.cancelled = true
            return (state.inner, state.task)
        }
        task?.cancel()
        if let inner {
            inner.cancel()  // its completion releases any lease, then finishes with 2002
        } else {
            completion.call(.failure(ImageError(.cancelled, "cancelled")))
        }
    }

    func setPriority(_ priority: ImageLoading.Priority) {
        let inner = state.withLock { state in
            state.priority = priority
            return state.inner
        }
        inner?.setPriority(priority)
    }
}

import Synchronization
import WICore

/// The in-process image cache: cost- and count-limited, sharded for concurrency, with W-TinyLFU admission, a weak
/// tier, time to live and memory-pressure trimming.
///
/// Keys are spread over independently locked shards by hash; each shard holds an equal share of the limits and
/// runs the eviction policy on its own entries, so lookups on different shards never wait for each other and a
/// hit never moves list nodes (with either policy a hit only sets a bit; W-TinyLFU also counts it).
///
/// Keys are told apart by their UTF-8 bytes: two strings Swift calls equal but spells differently (NFC and NFD
/// forms of the same accented letter) are two keys, as they are two different URLs.
///
/// ```swift
/// let cache = try MemoryCache(configuration: .init(costLimit: 512 << 20))
/// cache.setImage(image, forKey: "https://example.com/a.png")
/// let hit = cache.image(forKey: "https://example.com/a.png")
/// cache.costLimit = 128 << 20          // evicts at once
/// print(cache.statistics.hitRatio)
/// ```
///
/// Thread safety: every method and property may be used from any number of threads at once. Once a call returns,
/// `totalCost` and `count` are within the limits (each shard keeps within its share under its lock).
public final class MemoryCache: MemoryImageCaching, ShutdownCapable, Sendable {
    private let shards: [Shard]
    /// `shards`, unretained, for the hot paths.
    private let shardReferences: [Unmanaged<Shard>]
    private let shardMask: Int
    /// The secret that keys this cache's hashes (drawn when the cache is made).
    private let keySecret: KeyHash.Secret
    private let limits: Mutex<(cost: Int, count: Int)>
    /// Nanoseconds elapsed on the configured clock since the cache was made.
    let now: @Sendable () -> Int64
    /// The configuration the cache was made with (the limits in it are the initial ones).
    public let configuration: Configuration
    private let pressureSubscription: CancellationToken?

    /// A cache with the default configuration on `ContinuousClock`, trimming on the events of `pressureSource` if
    /// given.
    public convenience init(pressureSource: (any MemoryPressureSource)? = nil) {
        self.init(
            configuration: Configuration(), clock: ContinuousClock(), pressureSource: pressureSource,
            keySecret: KeyHash.randomSecret())
    }

    /// A cache on `ContinuousClock`, trimming on the events of `pressureSource` if given.
    ///
    /// Throws `.invalidArgument` when `configuration.validate()` does.
    public convenience init(configuration: Configuration, pressureSource: (any MemoryPressureSource)? = nil)
        throws(ImageError)
    {
        try self.init(configuration: configuration, clock: ContinuousClock(), pressureSource: pressureSource)
    }

    /// A cache whose time to live runs on `clock` (tests pass a manual clock).
    ///
    /// Throws `.invalidArgument` when `configuration.validate()` does.
    public convenience init<C: Clock>(
        configuration: Configuration, clock: C,
        pressureSource: (any MemoryPressureSource)? = nil
    ) throws(ImageError)
    where C.Duration == Duration {
        try configuration.validate()
        self.init(
            configuration: configuration, clock: clock, pressureSource: pressureSource,
            keySecret: KeyHash.randomSecret())
    }

    /// A cache whose key hashes use `keySecret` (tests fix it, so that which keys share a shard, an index run or a
    /// sketch counter is the same in every run). `configuration` must be valid (`validate()`); callers check it.
    init<C: Clock>(
        configuration: Configuration, clock: C, pressureSource: (any MemoryPressureSource)?,
        keySecret: KeyHash.Secret
    ) where C.Duration == Duration {
        self.configuration = configuration
        self.keySecret = keySecret
        let origin = clock.now
        now = { Self.nanoseconds(origin.duration(to: clock.now)) }
        let shardCount = configuration.resolvedShardCount
        let cost = max(0, configuration.costLimit)
        let count = max(0, configuration.countLimit)
        limits = Mutex((cost, count))
        let maxEntry = Self.maxEntryCost(costLimit: cost, ratio: configuration.maxEntryCostRatio)
        shards = (0..<shardCount).map { index in
            Shard(
                ShardState(
                    policy: configuration.evictionPolicy, usesWeakTier: configuration.usesWeakTier,
                    costLimit: Self.share(of: cost, shard: index, of: shardCount),
                    countLimit: Self.share(of: count, shard: index, of: shardCount), maxEntryCost: maxEntry))
        }
        shardReferences = shards.map { Unmanaged.passUnretained($0) }
        shardMask = shardCount - 1
        guard let pressureSource else {
            pressureSubscription = nil
            return
        }
        let trimRatio = configuration.pressureTrimRatio
        pressureSubscription = pressureSource.subscribe { [shards, now] level in
            Self.trim(shards, ratio: level == .critical ? 0 : trimRatio, now: now)
        }
    }

    deinit { pressureSubscription?.cancel() }

    /// Stops following memory pressure (its polling thread ends); the cache keeps working. Idempotent.
    public func shutdown() async { pressureSubscription?.cancel() }

    /// The number of shards.
    public var shardCount: Int { shards.count }

    // MARK: MemoryImageCaching

    /// The image stored under `key` (or found again through the weak tier), or nil when absent or expired.
    public func image(forKey key: String) -> Image? {
        let hash = KeyHash.hash(key, secret: keySecret)
        return withShard(hash) { $0.image(for: key, hash: hash, now: now) }
    }

    /// Stores `image` with the configured time to live; replaces what `key` held.
    public func setImage(_ image: Image, forKey key: String) {
        setImage(image, forKey: key, timeToLive: configuration.timeToLive)
    }

    /// Stores `image` under `key`, expiring after `timeToLive` (nil: never), evicting as needed to stay within
    /// the limits. An image costing more than `maxEntryCostRatio` of the cost limit is refused, and the key then
    /// holds nothing.
    public func setImage(_ image: Image, forKey key: String, timeToLive: Duration?) {
        let hash = KeyHash.hash(key, secret: keySecret)
        let deadline = timeToLive.map { Self.adding(Self.nanoseconds($0), to: now()) } ?? .max
        withShard(hash) { $0.store(image, cost: image.cost, deadline: deadline, for: key, hash: hash, now: now) }
    }

    /// Removes the image stored under `key`, from the weak tier too.
    public func removeImage(forKey key: String) {
        let key = CacheKey(key, secret: keySecret)
        withShard(key.hash) { $0.remove(key) }
    }

    /// Removes every image, the weak tier included.
    public func removeAll() {
        for shard in shards { shard.state.withLock { $0.removeAll() } }
    }

    // MARK: More

    /// Whether `key` holds an unexpired image in the strong tier; unlike `image(forKey:)` it changes nothing (no
    /// statistics, no recency, no weak-tier re-admission).
    public func containsImage(forKey key: String) -> Bool {
        let key = CacheKey(key, secret: keySecret)
        return withShard(key.hash) { $0.contains(key, now: now) }
    }

    /// Evicts, in policy order, until the cache holds at most `cost` bytes (each shard keeps its proportional share).
    public func trim(toCost cost: Int) {
        let total = totalCost
        guard total > max(0, cost) else { return }
        Self.trim(shards, ratio: Double(max(0, cost)) / Double(total), now: now)
    }

    /// Drops every expired entry now (expired entries are otherwise dropped when looked up or reached by eviction).
    public func removeExpired() {
        let time = now()
        for shard in shards { shard.state.withLock { $0.removeExpired(now: time) } }
    }

    /// The most bytes of pixels held; lowering it evicts at once. Negative values count as 0.
    public var costLimit: Int {
        get { limits.withLock { $0.cost } }
        set { setLimits { $0.cost = max(0, newValue) } }
    }

    /// The most images held; lowering it evicts at once. Negative values count as 0.
    public var countLimit: Int {
        get { limits.withLock { $0.count } }
        set { setLimits { $0.count = max(0, newValue) } }
    }

    /// Bytes of pixels held now.
    public var totalCost: Int { shards.reduce(0) { sum, shard in sum + shard.state.withLock { $0.cost } } }

    /// Images held now (the weak tier not included).
    public var count: Int { shards.reduce(0) { sum, shard in sum + shard.state.withLock { $0.count } } }

    /// Hit, miss and eviction counts and the current size.
    public var statistics: Statistics {
        var result = Statistics(hits: 0, weakHits: 0, misses: 0, evictions: 0, expirations: 0, totalCost: 0, count: 0)
        for shard in shards {
            shard.state.withLock { state in
                result.hits += state.counters.hits
                result.weakHits += state.counters.weakHits
                result.misses += state.counters.misses
                result.evictions += state.counters.evictions
                result.expirations += state.counters.expirations
                result.totalCost += state.cost
                result.count += state.count
            }
        }
        return result
    }

    /// Sets the counters of `statistics` back to zero.
    public func resetStatistics() {
        for shard in shards { shard.state.withLock { $0.counters = ShardCounters() } }
    }

    // MARK: Internals

    /// Runs `body` on the lock of the shard that `hash` picks, without retaining the shard (the cache owns it for
    /// longer than any call), so that threads on different shards share no reference count.
    @inline(__always)
    private func withShard<Result: Sendable>(_ hash: UInt64, _ body: (inout sending ShardState) -> sending Result)
        -> Result
    {
        shardReferences[Int(truncatingIfNeeded: hash) & shardMask]._withUnsafeGuaranteedRef { $0.state.withLock(body) }
    }

    private func setLimits(_ change: (inout (cost: Int, count: Int)) -> Void) {
        // Under the limits lock so that two concurrent changes apply to the shards in the same order.
        limits.withLock { limits in
            change(&limits)
            let maxEntry = Self.maxEntryCost(costLimit: limits.cost, ratio: configuration.maxEntryCostRatio)
            for (index, shard) in shards.enumerated() {
                let cost = Self.share(of: limits.cost, shard: index, of: shards.count)
                let count = Self.share(of: limits.count, shard: index, of: shards.count)
                shard.state.withLock { $0.setLimits(cost: cost, count: count, maxEntryCost: maxEntry, now: now) }
            }
        }
    }

    private static func trim(_ shards: [Shard], ratio: Double, now: () -> Int64) {
        for shard in shards {
            shard.state.withLock { state in
                let target = ratio <= 0 ? 0 : Int(Double(state.cost) * min(1, ratio))
                state.evict(toCost: target, count: state.countLimit, now: now)
            }
        }
    }
}

/// One lock and the entries it guards.
final class Shard: Sendable {
    let state: Mutex<ShardState>

    init(_ state: ShardState) {
        self.state = Mutex(state)
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

extension MemoryCache {
    /// How the cache picks what to evict.
    public enum EvictionPolicy: Sendable, Hashable {
        /// CLOCK (second chance): an approximation of LRU whose hits only set a bit. Eviction order: entries queue in
        /// insertion order; to make room the front entry is evicted unless it was hit since it last reached the
        /// front, in which case it is unmarked and sent to the back.
        case clock
        /// W-TinyLFU: a 1% window in front of a segmented main region (probation and protected), with a frequency
        /// sketch deciding whether an entry leaving the window may displace the main region's victim. Recency in
        /// each region is kept CLOCK-style, so hits move nothing. Resists scans and one-hit wonders; the default
        /// (see the trace results in docs/PERFORMANCE.md).
        case tinyLFU
    }

    /// The settings of a `MemoryCache`. Limits can be changed later on the cache itself.
    ///
    /// ```swift
    /// var configuration = MemoryCache.Configuration(costLimit: 256 << 20)
    /// configuration.timeToLive = .seconds(600)
    /// let cache = try MemoryCache(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The most bytes of pixels held (`Image.cost` summed). Default: a quarter of physical memory.
        public var costLimit: Int
        /// The most images held. Default: unlimited.
        public var countLimit: Int
        /// Images costing more than this share of `costLimit` are not admitted (default 0.1).
        public var maxEntryCostRatio: Double
        /// The eviction policy (default `.tinyLFU`).
        public var evictionPolicy: EvictionPolicy
        /// Whether evicted images that are still referenced elsewhere can be found again (default true, like
        /// SDWebImage's `shouldUseWeakMemoryCache`). The weak tier costs no pixel memory: it only remembers images
        /// that something else keeps alive, and re-admits one when it is looked up.
        public var usesWeakTier: Bool
        /// How long an entry lives unless `setImage(_:forKey:timeToLive:)` says otherwise (default: forever).
        public var timeToLive: Duration?
        /// On a `.warning` memory pressure event the cache trims to this share of its current cost (default 0.5);
        /// on `.critical` it empties its strong tier.
        public var pressureTrimRatio: Double
        /// The number of independently locked shards (a power of two), or nil to choose: up to 16, and few enough
        /// that each shard's share of the limits still holds the largest admitted entry and 64 images.
        public var shardCount: Int?

        public init(
            costLimit: Int = Int(min(ProcessInfo.processInfo.physicalMemory / 4, UInt64(Int.max))),
            countLimit: Int = .max, maxEntryCostRatio: Double = 0.1, evictionPolicy: EvictionPolicy = .tinyLFU,
            usesWeakTier: Bool = true, timeToLive: Duration? = nil, pressureTrimRatio: Double = 0.5,
            shardCount: Int? = nil
        ) {
            self.costLimit = costLimit
            self.countLimit = countLimit
            self.maxEntryCostRatio = maxEntryCostRatio
            self.evictionPolicy = evictionPolicy
            self.usesWeakTier = usesWeakTier
            self.timeToLive = timeToLive
            self.pressureTrimRatio = pressureTrimRatio
            self.shardCount = shardCount
        }

        /// Throws `.invalidArgument` when a value is out of range, naming it: a negative `costLimit` or `countLimit`,
        /// `maxEntryCostRatio` or `pressureTrimRatio` not a finite number in 0...1, a `timeToLive` that is not
        /// positive, or a `shardCount` outside 1...`maximumShardCount`. The cache's initializers call it.
        ///
        /// Thread safety: a pure function of the value.
        public func validate() throws(ImageError) {
            try ArgumentCheck.within(costLimit, 0...Int.max, "costLimit")
            try ArgumentCheck.within(countLimit, 0...Int.max, "countLimit")
            try ArgumentCheck.within(maxEntryCostRatio, 0...1, "maxEntryCostRatio")
            try ArgumentCheck.within(pressureTrimRatio, 0...1, "pressureTrimRatio")
            if let timeToLive, timeToLive <= .zero {
                throw ArgumentCheck.invalid("timeToLive", "be positive", "\(timeToLive)")
            }
            if let shardCount { try ArgumentCheck.within(shardCount, 1...Self.maximumShardCount, "shardCount") }
        }

        /// The most shards a configuration may ask for: 256.
        public static let maximumShardCount = 256

        /// The shard count used: `shardCount` rounded down to a power of two, or the automatic choice.
        var resolvedShardCount: Int {
            if let shardCount { return Self.powerOfTwo(atMost: max(1, shardCount)) }
            let byEntrySize = maxEntryCostRatio > 0 ? Int(min(16, 1 / maxEntryCostRatio)) : 16
            let byCount = max(1, min(16, countLimit / 64))
            return Self.powerOfTwo(atMost: max(1, min(16, byEntrySize, byCount)))
        }

        static func powerOfTwo(atMost value: Int) -> Int {
            1 << (Int.bitWidth - 1 - value.leadingZeroBitCount)
        }
    }

    /// Counters since the cache was made (or `resetStatistics()`), and its current size.
    ///
    /// Thread safety: a value type; a snapshot summed over the shards one after another.
    public struct Statistics: Sendable, Hashable {
        /// Lookups that returned an image (including `weakHits`).
        public var hits: Int
        /// Lookups that found an evicted image through the weak tier and re-admitted it.
        public var weakHits: Int
        /// Lookups that returned nil.
        public var misses: Int
        /// Entries removed to respect a limit, a trim or memory pressure (not explicit removals or expiry).
        public var evictions: Int
        /// Entries dropped because their time to live had passed.
        public var expirations: Int
        /// Bytes of pixels held now.
        public var totalCost: Int
        /// Images held now (the weak tier not included).
        public var count: Int

        /// `hits / (hits + misses)`, or 0 before any lookup.
        public var hitRatio: Double {
            hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses)
        }
    }
}

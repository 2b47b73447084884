#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
public import Logging

extension DiskCache {
    /// Which date of an entry ages it.
    public enum ExpiryDate: Sendable {
        /// The last write (SDWebImage's default).
        case modification
        /// The last read or write. Reads set the access date explicitly (`futimens`), so a relatime or noatime
        /// mount does not matter.
        case access
    }

    /// How an entry's size is counted against `sizeLimit`.
    public enum SizeAccounting: Sendable {
        /// The blocks the file occupies (`st_blocks * 512`): what the disk really loses.
        case allocated
        /// The number of bytes stored.
        case logical
    }

    /// Where extended data (`setExtendedData`) lives.
    public enum ExtendedDataStorage: Sendable {
        /// A `user.` extended attribute where the file system supports it, a sidecar file where it does not.
        case automatic
        /// Always a hidden sidecar file next to the entry.
        case sidecar
    }

    /// The disk cache's settings (SDWebImage's `SDImageCacheConfig` disk part).
    ///
    /// ```swift
    /// var configuration = DiskCache.Configuration()
    /// configuration.maxAge = 24 * 3600
    /// configuration.sizeLimit = 500 << 20
    /// let cache = try DiskCache(name: "thumbnails", configuration: configuration)
    /// ```
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct Configuration: Sendable {
        /// Entries older than this many seconds are removed by a trim; negative keeps them forever. One week.
        public var maxAge: TimeInterval = 7 * 24 * 3600
        /// The date that ages an entry.
        public var expiryDate: ExpiryDate = .modification
        /// The total size (bytes, counted by `sizeAccounting`) above which a trim deletes oldest entries; 0 = none.
        public var sizeLimit: Int64 = 0
        /// A size trim deletes oldest entries until the total is at most `sizeLimit * trimRatio`. 0.5.
        public var trimRatio: Double = 0.5
        /// How sizes are counted.
        public var sizeAccounting: SizeAccounting = .allocated
        /// fsync each entry and its directory before a write returns (durable across power loss, slower).
        public var durableWrites = false
        /// How often the cache trims itself in the background; nil turns the timer off. Ten minutes.
        public var trimInterval: Duration? = .seconds(600)
        /// Whether a store that takes the total over `sizeLimit` queues a background trim (one at a time, skipped
        /// while another process trims). On by default.
        public var trimsWhenOverLimit = true
        /// Where extended data is kept.
        public var extendedDataStorage: ExtendedDataStorage = .automatic
        /// Directories searched, read-only, when an entry is missing (a cache shipped with the app). They use the
        /// same file names; their listing is read once.
        public var additionalReadOnlyPaths: [String] = []
        /// Temporary files (from a writer that crashed) older than this many seconds are deleted by scans.
        public var staleTemporaryFileAge: TimeInterval = 3600
        /// The current time; tests inject a clock they control. Writes date files with it.
        public var now: @Sendable () -> Date = { Date() }
        /// Receives a warning for every failure the `DataCaching` methods drop (a write, a read other than a
        /// missing entry, a removal); default: a logger that prints nothing.
        public var logger: Logger = .webImageNoOp

        public init() {}

        /// Throws `.invalidArgument` when a value is out of range, naming it: a `maxAge` or
        /// `staleTemporaryFileAge` that is not finite (or a negative `staleTemporaryFileAge`), a negative
        /// `sizeLimit`, a `trimRatio` not in 0...1, or a `trimInterval` that is not positive. `DiskCache`'s
        /// initializers call it.
        ///
        /// Thread safety: a pure function of the value.
        public func validate() throws(ImageError) {
            try ArgumentCheck.finite(maxAge, "maxAge")
            guard sizeLimit >= 0 else { throw ArgumentCheck.invalid("sizeLimit", "be >= 0", String(sizeLimit)) }
            try ArgumentCheck.within(trimRatio, 0...1, "trimRatio")
            if let trimInterval, trimInterval <= .zero {
                throw ArgumentCheck.invalid("trimInterval", "be positive", "\(trimInterval)")
            }
            try ArgumentCheck.nonNegative(staleTemporaryFileAge, "staleTemporaryFileAge")
        }
    }

    /// What a trim removed.
    public struct TrimResult: Sendable, Equatable {
        /// Entries removed because they were too old.
        public var expiredCount = 0
        /// Entries removed to get under the size limit.
        public var evictedCount = 0
        /// Bytes freed (as counted by `sizeAccounting`).
        public var removedBytes: Int64 = 0

        public init(expiredCount: Int = 0, evictedCount: Int = 0, removedBytes: Int64 = 0) {
            self.expiredCount = expiredCount
            self.evictedCount = evictedCount
            self.removedBytes = removedBytes
        }
    }
}

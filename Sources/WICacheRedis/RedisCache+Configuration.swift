#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
public import Logging

extension RedisCache {
    /// Where the Redis server is and how the tier uses it.
    ///
    /// ```swift
    /// var configuration = RedisCache.Configuration(host: "10.0.0.5", port: 6379)
    /// configuration.password = ProcessInfo.processInfo.environment["REDIS_PASSWORD"]
    /// configuration.namespace = "thumbs:"
    /// configuration.timeToLive = .seconds(24 * 3600)
    /// let redis = try RedisCache(configuration: configuration)
    /// ```
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct Configuration: Sendable {
        /// The server's host name or IP address. One node: see `docs/REDIS.md` for clusters and sentinels.
        public var host: String
        /// The server's TCP port.
        public var port: Int
        /// The ACL user for `AUTH` (Redis 6 and later); nil authenticates with `password` alone.
        public var username: String?
        /// The password sent with `AUTH` on every new connection; nil sends no `AUTH`.
        public var password: String?
        /// The logical database `SELECT`ed on every new connection.
        public var database = 0
        /// Put before every key: entries live under `<namespace>d:<key>`, single-flight leases under
        /// `<namespace>l:<key>`. `removeAllData()` deletes only keys under it. "wi:".
        public var namespace = "wi:"
        /// How long an entry lives (`SET ... PX`); nil stores without expiry. One week, like the disk cache's
        /// `maxAge`.
        public var timeToLive: Duration? = .seconds(7 * 24 * 3600)
        /// Bytes above which an entry is not stored (and an older entry under its key is removed). 8 MiB.
        public var maxEntrySize = 8 << 20
        /// How long connecting may take. 250 ms.
        public var connectTimeout: Duration = .milliseconds(250)
        /// How long one command (or pipeline) may wait for its reply; later, the call is a miss. 250 ms.
        public var commandTimeout: Duration = .milliseconds(250)
        /// Idle connections kept for reuse; busier moments open more and close the surplus. 8.
        public var maxIdleConnections = 8
        /// The wait after an outage starts before the first reconnection try; it doubles after each failed try.
        /// 100 ms.
        public var reconnectDelay: Duration = .milliseconds(100)
        /// The longest wait between reconnection tries. 30 s.
        public var maxReconnectDelay: Duration = .seconds(30)
        /// Keys per `MGET` in `data(forKeys:)` (the batches go in one pipeline). 100.
        public var multiGetBatchSize = 100
        /// Receives a warning when an outage starts (not per failed call), with metadata `redis.address` and
        /// `webimage.error.code`. Default: a logger that prints nothing.
        public var logger: Logger = .webImageNoOp
        /// Receives the same line as the logger when an outage starts; nil (the default): the logger alone.
        public var warningHandler: (@Sendable (String) -> Void)?

        public init(host: String = "127.0.0.1", port: Int = 6379) {
            self.host = host
            self.port = port
        }

        /// Throws `.invalidArgument` when a value is out of range, naming it: `port` outside 1...65535,
        /// `database` outside 0...65535, a negative `maxEntrySize`, `timeToLive` not positive, `connectTimeout` or
        /// `commandTimeout` not in 1 ms...1 day, `maxIdleConnections` outside 0...1024, `reconnectDelay` or
        /// `maxReconnectDelay` not in 0...1 day, or `multiGetBatchSize` outside 1...100000. `RedisCache`'s
        /// initializer calls it.
        ///
        /// Thread safety: a pure function of the value.
        public func validate() throws(ImageError) {
            let day = Duration.seconds(24 * 3600)
            try ArgumentCheck.within(port, 1...65535, "port")
            try ArgumentCheck.within(database, 0...65535, "database")
            try ArgumentCheck.within(maxEntrySize, 0...Int.max, "maxEntrySize")
            if let timeToLive, timeToLive <= .zero {
                throw ArgumentCheck.invalid("timeToLive", "be positive", "\(timeToLive)")
            }
            for (name, value, lowest) in [
                ("connectTimeout", connectTimeout, Duration.milliseconds(1)),
                ("commandTimeout", commandTimeout, .milliseconds(1)),
                ("reconnectDelay", reconnectDelay, .zero),
                ("maxReconnectDelay", maxReconnectDelay, .zero),
            ]
            where !(lowest...day).contains(value) {
                throw ArgumentCheck.invalid(name, "be in \(lowest)...\(day)", "\(value)")
            }
            try ArgumentCheck.within(maxIdleConnections, 0...1024, "maxIdleConnections")
            try ArgumentCheck.within(multiGetBatchSize, 1...100_000, "multiGetBatchSize")
        }
    }
}

extension Duration {
    /// Whole milliseconds, at least 1 (Redis's `PX` refuses 0), saturating at `Int64.max` for absurd durations.
    var redisMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? 1 : .max }
        let (total, carry) = milliseconds.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return carry ? .max : max(1, total)
    }
}

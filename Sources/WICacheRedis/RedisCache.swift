#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// A data tier shared by every process and host pointed at the same Redis: encoded image bytes by key.
///
/// Put it behind the memory and disk tiers; a Redis hit is then promoted to disk and memory by
/// `TieredImageCache`. Entries are stored with `SET <namespace>d:<key> <bytes> PX <timeToLive>`; eviction is
/// Redis's own (run it with `maxmemory` and `maxmemory-policy allkeys-lru`). Connections are opened lazily,
/// kept in a small pool and never shared between threads.
///
/// ```swift
/// let redis = try RedisCache(configuration: .init(host: "cache.internal", port: 6379))
/// let cache = TieredImageCache(memory: MemoryCache(), dataTiers: [disk, redis], coders: coders)
/// ```
///
/// When Redis is down, slow or restarting, the `DataCaching` methods answer as misses and drop writes within
/// `commandTimeout`; after the first failure the tier stops trying for `reconnectDelay` (doubling up to
/// `maxReconnectDelay`) and logs one warning per outage. The throwing methods report the same failures as
/// `ImageError` codes 3100-3199. Single node only (no cluster redirects, no TLS: hiredis 0.14 has neither).
///
/// Thread safety: every method may be called from any number of threads at once. All methods block (network
/// I/O): call them from `WorkerPool.io` or another thread that may block, never from the cooperative pool.
public final class RedisCache: DataCaching, ShutdownCapable, Sendable {
    /// The settings this tier was made with.
    public let configuration: Configuration
    let pool: RedisConnectionPool

    /// A tier for the server at 127.0.0.1:6379 with the default settings. Does not connect yet.
    public convenience init() {
        self.init(checked: Configuration())
    }

    /// A tier for the server in `configuration`. Does not connect yet.
    ///
    /// Throws `.invalidArgument` when `configuration.validate()` does.
    public convenience init(configuration: Configuration) throws(ImageError) {
        try configuration.validate()
        self.init(checked: configuration)
    }

    /// A tier for a configuration that passed `validate()`.
    private init(checked configuration: Configuration) {
        self.configuration = configuration
        pool = RedisConnectionPool(configuration: configuration)
    }

    /// Closes the tier's connections; later calls fail with 1010 (`.shutDown`), so the data-tier methods report
    /// misses and drop writes. Idempotent.
    public func shutdown() async { pool.close() }

    /// The Redis key that holds the entry for `key`.
    public func redisKey(forKey key: String) -> String { configuration.namespace + "d:" + key }

    // MARK: Throwing API

    /// The bytes stored for `key`, or nil.
    public func readData(forKey key: String) throws(ImageError) -> Data? {
        try execute(["GET", redisKey(forKey: key)]).data()
    }

    /// Stores `data` for `key` with `timeToLive` (default: the configuration's). Bytes above `maxEntrySize`
    /// throw `.redisEntryTooLarge` after removing any older entry for `key`.
    public func store(_ data: Data, forKey key: String, timeToLive: Duration? = nil) throws(ImageError) {
        guard data.count <= configuration.maxEntrySize else {
            try remove(forKey: key)
            throw ImageError(
                .redisEntryTooLarge, "\(data.count) bytes exceed the \(configuration.maxEntrySize)-byte cap")
        }
        _ = try execute(setCommand(data, forKey: key, timeToLive: timeToLive)).isOK()
    }

    /// Removes the entry for `key` (and its HTTP cache info); a missing entry is not an error.
    public func remove(forKey key: String) throws(ImageError) {
        _ = try execute(["UNLINK", redisKey(forKey: key), httpCacheInfoKey(forKey: key)]).integer()
    }

    /// Whether an entry for `key` exists, without transferring it.
    public func contains(forKey key: String) throws(ImageError) -> Bool {
        try execute(["EXISTS", redisKey(forKey: key)]).integer() > 0
    }

    /// The bytes stored for each of `keys` that has an entry, fetched with `MGET`s sent in one pipeline.
    ///
    /// ```swift
    /// let found = try redis.readData(forKeys: upcoming.map(\.absoluteString))   // warm the disk tier with them
    /// ```
    public func readData(forKeys keys: [String]) throws(ImageError) -> [String: Data] {
        let batches = stride(from: 0, to: keys.count, by: max(1, configuration.multiGetBatchSize)).map {
            Array(keys[$0..<min(keys.count, $0 + max(1, configuration.multiGetBatchSize))])
        }
        guard !batches.isEmpty else { return [:] }
        let commands = batches.map { batch in (["MGET"] + batch.map(redisKey(forKey:))).map { Data($0.utf8) } }
        let replies = try pool.withConnection { connection throws(ImageError) in try connection.pipeline(commands) }
        var found: [String: Data] = [:]
        for (batch, reply) in zip(batches, replies) {
            let values = try reply.elements()
            for (key, value) in zip(batch, values) {
                if let data = try value.data() { found[key] = data }
            }
        }
        return found
    }

    /// Deletes every key under the namespace (entries and leases; other keys in the database stay), with
    /// `SCAN` and `UNLINK`. Returns how many keys were deleted.
    @discardableResult
    public func removeAll() throws(ImageError) -> Int {
        let pattern = Self.globEscaped(configuration.namespace) + "*"
        var cursor = "0"
        var removed = 0
        repeat {
            let reply = try execute(["SCAN", cursor, "MATCH", pattern, "COUNT", "500"]).elements()
            guard reply.count == 2, case .string(let next) = reply[0], case .array(let found) = reply[1] else {
                throw RedisReply.unexpected(.array(reply), wanted: "a SCAN reply")
            }
            cursor = String(decoding: next, as: UTF8.self)
            let keys = found.compactMap { if case .string(let key) = $0 { key } else { nil } }
            if !keys.isEmpty { removed += Int(try execute([Data("UNLINK".utf8)] + keys).integer()) }
        } while cursor != "0"
        return removed
    }

    // MARK: DataCaching

    /// `readData(forKey:)`, a miss on any failure.
    public func data(forKey key: String) -> Data? { try? readData(forKey: key) }
    /// `store(_:forKey:)`, dropping the write on any failure or when the bytes exceed `maxEntrySize`; an older
    /// entry's HTTP cache info is removed in the same pipeline.
    public func setData(_ data: Data, forKey key: String) { setData(data, httpCacheInfo: nil, forKey: key) }
    /// `remove(forKey:)`, ignoring failures.
    public func removeData(forKey key: String) { try? remove(forKey: key) }
    /// `contains(forKey:)`, false on any failure.
    public func containsData(forKey key: String) -> Bool { (try? contains(forKey: key)) ?? false }
    /// `removeAll()`, ignoring failures.
    public func removeAllData() { _ = try? removeAll() }

    /// The tier's name in `webimage_cache_lookups_total`.
    public var metricsName: String { "redis" }
    /// `readData(forKeys:)`, empty on any failure: a pipelined multi-get for prefetching.
    public func data(forKeys keys: [String]) -> [String: Data] { (try? readData(forKeys: keys)) ?? [:] }

    // MARK: Internals

    /// Runs one command on a pooled connection.
    func execute(_ arguments: [String]) throws(ImageError) -> RedisReply {
        try execute(arguments.map { Data($0.utf8) })
    }

    func execute(_ arguments: [Data]) throws(ImageError) -> RedisReply {
        try pool.withConnection { connection throws(ImageError) in try connection.command(arguments) }
    }

    /// `SET <key> <bytes> [PX ms]`.
    func setCommand(_ data: Data, forKey key: String, timeToLive: Duration? = nil) -> [Data] {
        var command = [Data("SET".utf8), Data(redisKey(forKey: key).utf8), data]
        if let ttl = timeToLive ?? configuration.timeToLive {
            command += [Data("PX".utf8), Data(String(ttl.redisMilliseconds).utf8)]
        }
        return command
    }

    /// `pattern` with glob characters escaped for `SCAN MATCH`.
    static func globEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "*?[]\\^".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

// The HTTP validators and freshness of an entry live in a key of their own beside its bytes,
// `<namespace>h:<key>`, written in the same pipeline as the bytes and with the same time to live.
extension RedisCache {
    /// The Redis key that holds the HTTP cache info of the entry for `key`.
    public func httpCacheInfoKey(forKey key: String) -> String { configuration.namespace + "h:" + key }

    /// The HTTP cache info stored with the entry for `key`, or nil (none, unreadable, or Redis unreachable).
    public func httpCacheInfo(forKey key: String) -> HTTPCacheInfo? {
        guard let data = try? execute(["GET", httpCacheInfoKey(forKey: key)]).data() else { return nil }
        return HTTPCacheInfo(serialized: data)
    }

    /// Stores `data` and `httpCacheInfo` for `key` in one pipeline (nil info removes an older entry's); dropped on
    /// any failure, or when the bytes exceed `maxEntrySize`.
    public func setData(_ data: Data, httpCacheInfo: HTTPCacheInfo?, forKey key: String) {
        guard data.count <= configuration.maxEntrySize else {
            try? remove(forKey: key)
            return
        }
        let info =
            httpCacheInfo.map { httpCacheInfoCommand($0, forKey: key) }
            ?? ["UNLINK", httpCacheInfoKey(forKey: key)].map { Data($0.utf8) }
        _ = try? pool.withConnection { connection throws(ImageError) in
            try connection.pipeline([setCommand(data, forKey: key), info])
        }
    }

    /// Replaces the HTTP cache info of the entry for `key` (a 304 renewed it), with the tier's time to live; does
    /// nothing when the tier holds no entry for `key` (or Redis is unreachable).
    public func setHTTPCacheInfo(_ info: HTTPCacheInfo, forKey key: String) {
        guard (try? contains(forKey: key)) == true else { return }
        _ = try? execute(httpCacheInfoCommand(info, forKey: key))
    }

    /// `SET <namespace>h:<key> <info> [PX ms]`.
    private func httpCacheInfoCommand(_ info: HTTPCacheInfo, forKey key: String) -> [Data] {
        var command = [Data("SET".utf8), Data(httpCacheInfoKey(forKey: key).utf8), info.serialized()]
        if let ttl = configuration.timeToLive {
            command += [Data("PX".utf8), Data(String(ttl.redisMilliseconds).utf8)]
        }
        return command
    }
}

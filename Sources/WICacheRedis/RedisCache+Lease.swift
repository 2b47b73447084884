#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// Short leases (`SET <namespace>l:<key> <token> NX PX <ms>`) that let one process in a fleet load a URL while
/// the others wait for its bytes. Used by `RedisSingleFlightLoader`.
extension RedisCache {
    /// What an attempt to take a lease found.
    enum LeaseAttempt: Sendable, Equatable {
        /// The entry is already stored (any lease taken on the way was given back).
        case stored(Data)
        /// This caller holds the lease under `token` until it releases it or it expires.
        case acquired(token: String)
        /// Another process holds the lease and nothing is stored yet.
        case heldElsewhere
    }

    /// Deletes the lease only while it still holds `token` (a lease that expired and was taken by someone else
    /// stays theirs).
    static let releaseScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end
        """

    /// The Redis key of the lease for `key`.
    func leaseKey(forKey key: String) -> String { configuration.namespace + "l:" + key }

    /// Tries to take the lease for `key` and reads the entry, in one round trip (`SET NX PX`, then `GET`). A holder
    /// stores the entry before releasing its lease, so taking a lease and still finding no entry means the
    /// previous holder stored nothing.
    func attemptLease(forKey key: String, duration: Duration) throws(ImageError) -> LeaseAttempt {
        let token = UUID().uuidString
        let lease = leaseKey(forKey: key)
        let replies = try pool.withConnection { connection throws(ImageError) in
            try connection.pipeline([
                ["SET", lease, token, "NX", "PX", String(duration.redisMilliseconds)].map { Data($0.utf8) },
                ["GET", redisKey(forKey: key)].map { Data($0.utf8) },
            ])
        }
        let acquired = try replies[0].isOK()
        if let data = try replies[1].data() {
            if acquired { try releaseLease(forKey: key, token: token) }
            return .stored(data)
        }
        return acquired ? .acquired(token: token) : .heldElsewhere
    }

    /// Stores `data` for `key` (when within `maxEntrySize`), then releases the lease held under `token`, in one
    /// round trip: waiting processes see the entry before the lease is gone.
    func storeAndReleaseLease(_ data: Data?, forKey key: String, token: String) throws(ImageError) {
        var commands: [[Data]] = []
        if let data, data.count <= configuration.maxEntrySize { commands.append(setCommand(data, forKey: key)) }
        commands.append(releaseCommand(forKey: key, token: token))
        let replies = try pool.withConnection { connection throws(ImageError) in try connection.pipeline(commands) }
        for reply in replies { _ = try reply.checked.get() }
    }

    /// Releases the lease held under `token`; returns whether it was still held.
    @discardableResult
    func releaseLease(forKey key: String, token: String) throws(ImageError) -> Bool {
        try execute(releaseCommand(forKey: key, token: token)).integer() == 1
    }

    private func releaseCommand(forKey key: String, token: String) -> [Data] {
        ["EVAL", Self.releaseScript, "1", leaseKey(forKey: key), token].map { Data($0.utf8) }
    }
}

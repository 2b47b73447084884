import WICore

/// The Redis tier's error codes (WICore reserves 3100-3199 for it).
///
/// The throwing `RedisCache` methods report these; the `DataCaching` methods turn every failure into a miss or a
/// dropped write, so a missing, slow or restarting Redis never fails an image load.
extension ImageError.Code {
    /// Redis could not be reached or answered too late: connect failure, timeout, closed connection, or the tier
    /// is waiting out a backoff after an outage. The message carries hiredis's own text.
    public static let redisUnavailable = ImageError.Code(rawValue: 3100)
    /// The server answered with an error (wrong password, `MOVED` from a cluster, out of memory under
    /// `maxmemory-policy noeviction`...); the message is the server's.
    public static let redisCommandFailed = ImageError.Code(rawValue: 3101)
    /// The server's answer had a type the command never returns.
    public static let redisUnexpectedReply = ImageError.Code(rawValue: 3102)
    /// The bytes exceed `RedisCache.Configuration.maxEntrySize` and were not stored.
    public static let redisEntryTooLarge = ImageError.Code(rawValue: 3103)
}

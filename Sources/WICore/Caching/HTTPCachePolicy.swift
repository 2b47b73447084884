#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a cached original's HTTP validators and freshness (``HTTPCacheInfo``) decide whether it is used as is.
///
/// Thread safety: a value type; safe to share and use from any thread.
public enum HTTPCachePolicy: Sendable, Hashable {
    /// Cached entries are used whatever their HTTP freshness (the default, SDWebImage's behaviour).
    case ignore
    /// A fresh entry is used; a stale or `no-cache` one is revalidated before answering.
    case respect
    /// Like `.respect`, but an entry stale by at most `maxStale` is used at once and revalidated in the background
    /// (unless the response said `no-cache` or `must-revalidate`).
    case staleWhileRevalidate(maxStale: Duration)

    /// What to do with a cached entry.
    ///
    /// Thread safety: a value type; safe to share and use from any thread.
    public enum Decision: Sendable, Hashable {
        /// Answer with the cached entry; no request.
        case useCached
        /// Make a request (conditional when the entry has validators) and answer with its outcome.
        case revalidate
        /// Answer with the cached entry now and revalidate it in the background.
        case useCachedAndRevalidate
    }

    /// The decision for an entry stored with `info` (nil when its tier kept none: used as is) at `now`.
    public func decision(for info: HTTPCacheInfo?, now: Date) -> Decision {
        guard let info else { return .useCached }
        switch self {
        case .ignore:
            return .useCached
        case .respect:
            return info.isFresh(at: now) ? .useCached : .revalidate
        case .staleWhileRevalidate(let maxStale):
            if info.isFresh(at: now) { return .useCached }
            if info.noCache || info.mustRevalidate { return .revalidate }
            return Duration.seconds(info.staleness(at: now)) <= maxStale ? .useCachedAndRevalidate : .revalidate
        }
    }
}

extension ImageContext.Key where Value == HTTPCachePolicy {
    /// How the HTTP freshness stored with cached originals is honoured (default `.ignore`: entries are good until
    /// evicted). Requests with different policies never share an image task.
    public static var httpCachePolicy: Self { Self("httpCachePolicy", role: .result) }
}

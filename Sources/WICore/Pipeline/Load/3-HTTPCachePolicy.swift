#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

extension ImageResult {
    /// How HTTP caching decided a load's answer (``ImageResult/httpCacheOutcome``, the `.httpCache` event).
    ///
    /// Thread safety: a value type; safe to send and share.
    public enum HTTPCacheOutcome: String, Sendable, Hashable {
        /// The cached entry was fresh under the request's `.httpCachePolicy`: answered with no request.
        case fresh
        /// The cached entry was stale within `maxStale`: answered at once, revalidated in the background (or stale and
        /// answered as it is because `.fromCacheOnly` forbids the request).
        case stale
        /// The cached entry was revalidated before answering and the server said 304 Not Modified.
        case revalidated
        /// The cached entry was revalidated and the server sent new bytes (200), which replaced it.
        case replaced
    }
}

extension ImageManager {
    /// HTTP cache counts of one manager (``ImageManager/httpCacheStatistics``).
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct HTTPCacheStatistics: Sendable, Hashable {
        /// Answers from an entry the policy found fresh (no request).
        public var fresh = 0
        /// Answers from a stale entry, served while it was revalidated in the background.
        public var stale = 0
        /// Revalidations (conditional requests, in the foreground or the background) the server answered with 304.
        public var notModified = 0
        /// Revalidations the server answered with new bytes, which replaced the entry.
        public var replaced = 0

        public init() {}
    }
}

/// What the HTTP cache policy makes of a cached entry.
enum CacheVerdict {
    /// Use the entry with this info (renewed after a 304); the outcome to record (nil: the policy is `.ignore`); and
    /// whether to revalidate it in the background once used (stale within its grace).
    case use(HTTPCacheInfo?, ImageResult.HTTPCacheOutcome?, revalidateAfter: Bool)
    /// The revalidation brought new bytes (200), loaded by the conditional request: finish them as a download.
    case replaced(ImageLoadResult, ResolvedRequest)
    /// The revalidation failed.
    case failed(ImageError)
}

/// A revalidation's answer.
enum Revalidation {
    /// 304: the entry's info renewed by the answer's head.
    case notModified(HTTPCacheInfo)
    /// New bytes, loaded by `request` (the conditional request).
    case modified(ImageLoadResult, request: ResolvedRequest)
}

extension ImageManager {
    /// HTTP cache counts since the manager was made: fresh and stale answers, 304 and 200 revalidations.
    ///
    /// Thread safety: may be read from any thread.
    public var httpCacheStatistics: ImageManager.HTTPCacheStatistics { httpCounts.withLock { $0 } }

    /// Judges an entry stored with `info` by the request's `.httpCachePolicy`; a revalidation it needs is made
    /// here, shared with identical ones in flight (a 304 renews the entry in the caches).
    func verdict(on info: HTTPCacheInfo?, _ request: ResolvedRequest, _ task: ImageTaskContext) async -> CacheVerdict {
        let policy = request.httpCachePolicy
        guard policy != .ignore else { return .use(info, nil, revalidateAfter: false) }
        let decision = policy.decision(for: info, now: now())
        if decision != .useCached && request.options.contains(.fromCacheOnly) {
            // The request a revalidation needs is forbidden: the entry answers as it is.
            return .use(info, .stale, revalidateAfter: false)
        }
        switch decision {
        case .useCached:
            return .use(info, .fresh, revalidateAfter: false)
        case .useCachedAndRevalidate:
            return .use(info, .stale, revalidateAfter: true)
        case .revalidate:
            switch await revalidation(request, info: info, task: task) {
            case .failure(let error):
                return .failed(error)
            case .success(.notModified(let renewed)):
                await renew(request, info: renewed)
                return .use(renewed, .revalidated, revalidateAfter: false)
            case .success(.modified(let loaded, let conditional)):
                return .replaced(loaded, conditional)
            }
        }
    }

    /// `request` made conditional on `info`'s validators (If-None-Match, If-Modified-Since); unchanged when it has
    /// none. Its load key follows: conditional loads share work only with loads of the same validators, and the
    /// validators alone say it is a revalidation (a `.refreshCached` one and a stale hit's share the request).
    func conditionalRequest(_ request: ResolvedRequest, info: HTTPCacheInfo?) -> ResolvedRequest {
        guard let info, info.hasValidators else { return request }
        var conditional = request
        conditional.loadRequest.cachedETag = info.etag
        conditional.loadRequest.cachedLastModified = info.lastModified
        conditional.loadRequest.options.remove(.refreshCached)
        let identity = request.loader.identity(of: conditional.loadRequest)
        conditional.load = LoadKey(
            loader: request.load.loader,
            identity: request.load.identity.isPrivate ? identity.makingPrivate() : identity)
        return conditional
    }

    /// One revalidation of the entry stored with `info`: a conditional request (a plain one without validators),
    /// shared with identical ones in flight. 304 renews `info` with the answer's head.
    func revalidation(_ request: ResolvedRequest, info: HTTPCacheInfo?, task: ImageTaskContext?) async
        -> Result<Revalidation, ImageError>
    {
        let conditional = conditionalRequest(request, info: info)
        switch await load(conditional, task: task) {
        case .failure(let error):
            return .failure(error)
        case .success(let loaded):
            if let head = loaded.response, head.statusCode == 304 {
                httpCounts.withLock { $0.notModified += 1 }
                let now = now()
                return .success(.notModified((info ?? HTTPCacheInfo(date: now)).renewed(by: head.headers, now: now)))
            }
            return .success(.modified(loaded, request: conditional))
        }
    }

    /// The info to store with a downloaded original: read from its response head (nil without an HTTP status).
    func httpCacheInfo(of loaded: ImageLoadResult) -> HTTPCacheInfo? {
        guard let head = loaded.response, head.statusCode != nil else { return nil }
        return HTTPCacheInfo(headers: head.headers, now: now())
    }
}

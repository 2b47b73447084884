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

/// How a background revalidation ended, for the callers waiting on it.
enum RefreshOutcome: Sendable {
    /// 304 (or, without validators, the same bytes): the entry stands, renewed.
    case notModified
    /// New bytes replaced the entry: the new result.
    case replaced(ImageResult)
    /// The request failed or was stopped: the entry stands as it was.
    case failed
}

/// A revalidation's answer.
enum Revalidation {
    /// 304: the entry's info renewed by the answer's head.
    case notModified(HTTPCacheInfo)
    /// New bytes, loaded by `request` (the conditional request).
    case modified(ImageLoadResult, request: ResolvedRequest)
}

extension ImageManager {
    /// The callback that hands a replaced result to a callback-form caller.
    typealias Deliver = @Sendable (Result<ImageResult, ImageError>) -> Void
    /// A caller waiting for a background revalidation's outcome.
    typealias RefreshWaiter = @Sendable (RefreshOutcome) -> Void

    /// HTTP cache counts since the manager was made: fresh and stale answers, 304 and 200 revalidations.
    ///
    /// Thread safety: may be read from any thread.
    public var httpCacheStatistics: ImageManager.HTTPCacheStatistics { httpCounts.withLock { $0 } }

    /// Applies the request's `.httpCachePolicy` to a cache `hit`: `use` makes the answer from the cached entry (with
    /// the info to keep with it); a revalidation's new bytes go through the network path. Nil: treat as a miss.
    func answer(_ hit: ImageCacheQueryResult, request: ResolvedRequest, task: ImageTaskContext, cache: any ImageCache,
                use: (HTTPCacheInfo?) async -> Result<ImageResult, ImageError>?) async -> Result<ImageResult, ImageError>? {
        let policy = request.context[.httpCachePolicy] ?? .ignore
        let info = hit.httpCacheInfo
        guard policy != .ignore else { return await use(info) }
        let decision = policy.decision(for: info, now: now())
        if decision != .useCached && request.options.contains(.fromCacheOnly) {
            // The request a revalidation needs is forbidden: the entry answers as it is.
            return await use(info).map { mark($0, .stale) }
        }
        switch decision {
        case .useCached:
            return await use(info).map { mark($0, .fresh) }
        case .useCachedAndRevalidate:
            let result = await use(info)
            if case .success(let value)? = result {
                revalidateInBackground(request, info: info, cachedBytes: value.sourceData, waiter: nil)
            }
            return result.map { mark($0, .stale) }
        case .revalidate:
            switch await revalidation(request, info: info, task: task) {
            case .failure(let error):
                return .failure(error)
            case .success(.notModified(let renewed)):
                await renew(request, info: renewed, cache: cache)
                return await use(renewed).map { mark($0, .revalidated) }
            case .success(.modified(let loaded, let conditional)):
                let result = await decodeAndFinish(conditional, loaded: loaded, cache: cache)
                if case .success = result { httpCounts.withLock { $0.replaced += 1 } }
                return mark(result, .replaced)
            }
        }
    }

    /// `result` with `outcome` recorded.
    private func mark(_ result: Result<ImageResult, ImageError>, _ outcome: ImageResult.HTTPCacheOutcome)
        -> Result<ImageResult, ImageError>
    {
        result.map {
            var value = $0
            value.httpCacheOutcome = outcome
            return value
        }
    }

    /// Counts an answer's outcome and sends the `.httpCache` event (once per caller).
    func report(_ result: ImageResult, url: URL) {
        guard let outcome = result.httpCacheOutcome else { return }
        if outcome == .fresh || outcome == .stale {
            httpCounts.withLock { if outcome == .fresh { $0.fresh += 1 } else { $0.stale += 1 } }
        }
        emit(url, .httpCache(outcome))
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
        let loader = request.context[.imageLoader] ?? self.loader
        let identity = loader.identity(of: conditional.loadRequest)
        conditional.load = LoadKey(loader: request.load.loader,
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

    /// Decodes downloaded bytes and finishes the load with them (stored as the new original).
    func decodeAndFinish(_ request: ResolvedRequest, loaded: ImageLoadResult, cache: any ImageCache) async
        -> Result<ImageResult, ImageError>
    {
        switch await decode(loaded.data, source: .load(request.load), request: request, options: request.decodeOptions) {
        case .success(let original): return await finish(request, original: original, origin: .network(loaded), cache: cache)
        case .failure(let error): return .failure(error)
        }
    }

    /// Puts `info` on the request's entries (the original's and the final image's) after a 304.
    func renew(_ request: ResolvedRequest, info: HTTPCacheInfo, cache: any ImageCache) async {
        guard let sourceKey = request.sourceKey else { return }
        guard let finalKey = request.finalKey, finalKey != sourceKey else {
            return await cache.renewHTTPCacheInfo(info, key: sourceKey, cacheType: .all)
        }
        await (request.context[.originalImageCache] ?? cache).renewHTTPCacheInfo(info, key: sourceKey, cacheType: .all)
        await cache.renewHTTPCacheInfo(info, key: finalKey, cacheType: .all)
    }

    /// The info to store with a downloaded original: read from its response head (nil without an HTTP status).
    func httpCacheInfo(of loaded: ImageLoadResult) -> HTTPCacheInfo? {
        guard let head = loaded.response, head.statusCode != nil else { return nil }
        return HTTPCacheInfo(headers: head.headers, now: now())
    }

    /// Revalidates `request`'s entry in the background (tracked work that ends at `shutdown()`, never blocking a
    /// caller). Requests equal to one being revalidated join it: ONE conditional request, and each joiner's
    /// `waiter` gets its outcome (the new result when the server sent new bytes). Without validators the new
    /// bytes count as unchanged when they equal `cachedBytes` (or the cached original's bytes).
    func revalidateInBackground(_ request: ResolvedRequest, info: HTTPCacheInfo?, cachedBytes: Data?,
                                waiter: RefreshWaiter?) {
        let key = imageTaskKey(request)
        let isNew = revalidations.withLock { table -> Bool in
            if table[key] != nil {
                if let waiter { table[key]?.append(waiter) }
                return false
            }
            table[key] = waiter.map { [$0] } ?? []
            return true
        }
        guard isNew else { return }
        var waiting = request
        waiting.options.insert(.waitStoreCache)   // the entry is replaced before the revalidation ends
        let background = waiting
        let started = tracker.background(stopsAtShutdown: true) { [self] in
            let outcome = await revalidateNow(background, info: info, cachedBytes: cachedBytes)
            let waiters = revalidations.withLock { $0.removeValue(forKey: key) ?? [] }
            switch outcome {
            case .notModified: emit(request.url, .httpCache(.revalidated))
            case .replaced: emit(request.url, .httpCache(.replaced))
            case .failed: break
            }
            for waiter in waiters { waiter(outcome) }
        }
        if !started {
            let waiters = revalidations.withLock { $0.removeValue(forKey: key) ?? [] }
            for waiter in waiters { waiter(.failed) }
        }
    }

    /// The background revalidation's work.
    private func revalidateNow(_ request: ResolvedRequest, info: HTTPCacheInfo?, cachedBytes: Data?) async -> RefreshOutcome {
        let cache = request.context[.imageCache] ?? self.cache
        switch await revalidation(request, info: info, task: nil) {
        case .failure:
            return .failed
        case .success(.notModified(let renewed)):
            await renew(request, info: renewed, cache: cache)
            return .notModified
        case .success(.modified(let loaded, let conditional)):
            if info?.hasValidators != true, await originalBytes(request, known: cachedBytes) == loaded.data {
                // No validators to ask with, and the same bytes came back: unchanged.
                httpCounts.withLock { $0.notModified += 1 }
                if let fresh = httpCacheInfo(of: loaded) { await renew(request, info: fresh, cache: cache) }
                return .notModified
            }
            guard case .success(var result) = await decodeAndFinish(conditional, loaded: loaded, cache: cache) else {
                return .failed
            }
            httpCounts.withLock { $0.replaced += 1 }
            result.httpCacheOutcome = .replaced
            return .replaced(result)
        }
    }

    /// The cached original's bytes: `known`, or read from the cache.
    private func originalBytes(_ request: ResolvedRequest, known: Data?) async -> Data? {
        if let known { return known }
        guard let sourceKey = request.sourceKey else { return nil }
        let cache = request.context[.imageCache] ?? self.cache
        let originalCache = sourceKey == request.finalKey ? cache : request.context[.originalImageCache] ?? cache
        return await originalCache.query(key: sourceKey, options: [.queryMemoryData], context: request.context,
                                         cacheType: .all)?.data
    }
}

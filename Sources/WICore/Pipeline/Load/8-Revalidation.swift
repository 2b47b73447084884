#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a background revalidation ended, for the callers waiting on it.
enum RefreshOutcome: Sendable {
    /// 304 (or, without validators, the same bytes): the entry stands, renewed.
    case notModified
    /// New bytes replaced the entry: the new result.
    case replaced(ImageResult)
    /// The request failed or was stopped: the entry stands as it was.
    case failed
}

extension ImageManager {
    /// A caller waiting for a background revalidation's outcome.
    typealias RefreshWaiter = @Sendable (RefreshOutcome) -> Void

    /// Whether `.refreshCached` revalidates after `answer`: it came from the cache, not from a revalidation.
    func needsRefresh(_ answer: ImageResult) -> Bool {
        answer.cacheType != .none && answer.httpCacheOutcome != .revalidated && answer.httpCacheOutcome != .replaced
    }

    /// `.refreshCached` with `.waitStoreCache`: revalidates the entry `answer` came from and returns the outcome: the
    /// cached image (`httpCacheOutcome` `.revalidated`), the new one (`.replaced`), or `answer` when it failed.
    func refreshAndWait(_ request: ResolvedRequest, after answer: ImageResult) async -> ImageResult {
        let outcome = await withCheckedContinuation { continuation in
            refreshInBackground(request, after: answer) { continuation.resume(returning: $0) }
        }
        switch outcome {
        case .notModified:
            var value = answer
            value.httpCacheOutcome = .revalidated
            return value
        case .replaced(let replaced): return replaced
        case .failed: return answer
        }
    }

    /// `.refreshCached` after an answer from the cache: revalidates the entry in the background with its stored
    /// validators. A 304 renews the entry; new bytes replace the entry in every tier; `waiter` learns which.
    func refreshInBackground(_ request: ResolvedRequest, after answer: ImageResult, waiter: RefreshWaiter?) {
        revalidateInBackground(request, info: answer.httpCacheInfo, cachedBytes: answer.sourceData, waiter: waiter)
    }

    /// Revalidates `request`'s entry in the background (tracked work that ends at `shutdown()`, never blocking a
    /// caller). Requests equal to one being revalidated join it: ONE conditional request, and each joiner's
    /// `waiter` gets its outcome (the new result when the server sent new bytes). Without validators the new
    /// bytes count as unchanged when they equal `cachedBytes` (or the cached original's bytes).
    func revalidateInBackground(
        _ request: ResolvedRequest, info: HTTPCacheInfo?, cachedBytes: Data?,
        waiter: RefreshWaiter?
    ) {
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
        waiting.options.insert(.waitStoreCache)  // the entry is replaced before the revalidation ends
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
    private func revalidateNow(_ request: ResolvedRequest, info: HTTPCacheInfo?, cachedBytes: Data?) async
        -> RefreshOutcome
    {
        switch await revalidation(request, info: info, task: nil) {
        case .failure:
            return .failed
        case .success(.notModified(let renewed)):
            await renew(request, info: renewed)
            return .notModified
        case .success(.modified(let loaded, let conditional)):
            if info?.hasValidators != true, await originalBytes(request, known: cachedBytes) == loaded.data {
                // No validators to ask with, and the same bytes came back: unchanged.
                httpCounts.withLock { $0.notModified += 1 }
                if let fresh = httpCacheInfo(of: loaded) { await renew(request, info: fresh) }
                return .notModified
            }
            guard case .success(var result) = await downloaded(loaded, conditional) else {
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
        let originalCache = sourceKey == request.finalKey ? request.cache : request.originalCache
        return await originalCache.query(
            key: sourceKey, options: [.queryMemoryData], context: request.context,
            cacheType: .all)?.data
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Several caches acting as one, with a policy per operation (SDWebImage's `SDImageCachesManager`).
/// The last added cache has the highest priority.
///
/// ```swift
/// let caches = ImageCachesManager(caches: [sharedCache])
/// caches.addCache(perUserCache)          // queried first
/// caches.storePolicy = .concurrent       // store into both
/// ```
///
/// Thread safety: all methods and policy properties may be used from any number of tasks at once.
public final class ImageCachesManager: ImageCache, Sendable {
    /// How an operation spreads over the caches.
    public enum Policy: Sendable, Hashable {
        /// Only the highest-priority cache.
        case highestOnly
        /// Only the lowest-priority cache.
        case lowestOnly
        /// All caches at once; for queries (and `contains`), the first hit to arrive wins, memory before disk: the
        /// memory tiers are raced first, the data tiers only when no memory tier has the key (SDWebImage's memory
        /// lookups answer synchronously, so one always beats any disk hit there too).
        case concurrent
        /// One after another, highest priority first; for queries, stop at the first hit.
        case serial
    }

    private struct State {
        var caches: [any ImageCache]
        var queryPolicy = Policy.serial
        var storePolicy = Policy.highestOnly
        var removePolicy = Policy.concurrent
        var containsPolicy = Policy.serial
        var clearPolicy = Policy.concurrent
    }

    private let state: Mutex<State>

    public init(caches: [any ImageCache] = []) {
        state = Mutex(State(caches: caches))
    }

    /// The caches, highest priority first.
    public var caches: [any ImageCache] { state.withLock { Array($0.caches.reversed()) } }
    public func addCache(_ cache: any ImageCache) { state.withLock { $0.caches.append(cache) } }
    public func removeCaches(where predicate: (any ImageCache) -> Bool) {
        state.withLock { $0.caches.removeAll(where: predicate) }
    }

    /// Query policy (default `.serial`).
    public var queryPolicy: Policy {
        get { state.withLock { $0.queryPolicy } }
        set { state.withLock { $0.queryPolicy = newValue } }
    }
    /// Store policy (default `.highestOnly`).
    public var storePolicy: Policy {
        get { state.withLock { $0.storePolicy } }
        set { state.withLock { $0.storePolicy = newValue } }
    }
    /// Remove policy (default `.concurrent`).
    public var removePolicy: Policy {
        get { state.withLock { $0.removePolicy } }
        set { state.withLock { $0.removePolicy = newValue } }
    }
    /// Contains policy (default `.serial`).
    public var containsPolicy: Policy {
        get { state.withLock { $0.containsPolicy } }
        set { state.withLock { $0.containsPolicy = newValue } }
    }
    /// Clear policy (default `.concurrent`).
    public var clearPolicy: Policy {
        get { state.withLock { $0.clearPolicy } }
        set { state.withLock { $0.clearPolicy = newValue } }
    }

    /// The caches an operation under `policy` touches, highest priority first.
    private func targets(_ policy: Policy) -> [any ImageCache] {
        let all = caches
        switch policy {
        case .highestOnly: return Array(all.prefix(1))
        case .lowestOnly: return Array(all.suffix(1))
        case .concurrent, .serial: return all
        }
    }

    public func query(key: String, options: ImageOptions, context: ImageContext, cacheType: ImageCacheType) async
        -> ImageCacheQueryResult?
    {
        let policy = queryPolicy
        let targets = targets(policy)
        if policy != .concurrent {
            for cache in targets {
                if let hit = await cache.query(key: key, options: options, context: context, cacheType: cacheType) {
                    return hit
                }
                if Task.isCancelled { return nil }
            }
            return nil
        }
        for stage in Self.stages(of: cacheType) {
            let hit = await withTaskGroup(of: ImageCacheQueryResult?.self) { group in
                for cache in targets {
                    group.addTask { await cache.query(key: key, options: options, context: context, cacheType: stage) }
                }
                for await hit in group where hit != nil {
                    group.cancelAll()
                    return hit
                }
                return nil
            }
            if hit != nil || Task.isCancelled { return hit }
        }
        return nil
    }

    /// The tiers a concurrent policy races one after the other: memory, then disk (those `cacheType` selects).
    private static func stages(of cacheType: ImageCacheType) -> [ImageCacheType] {
        [ImageCacheType.memory, .disk].filter {
            $0 == .memory ? cacheType.includesMemory : cacheType.includesDisk
        }
    }

    public func store(image: Image?, data: Data?, key: String, cacheType: ImageCacheType, context: ImageContext) async {
        await each(storePolicy) {
            await $0.store(image: image, data: data, key: key, cacheType: cacheType, context: context)
        }
    }

    public func store(
        image: Image?, data: Data?, httpCacheInfo: HTTPCacheInfo?, key: String, cacheType: ImageCacheType,
        context: ImageContext
    ) async {
        await each(storePolicy) {
            await $0.store(
                image: image, data: data, httpCacheInfo: httpCacheInfo, key: key, cacheType: cacheType,
                context: context)
        }
    }

    /// Renews the info in every cache (each keeps it where it holds the entry).
    public func renewHTTPCacheInfo(_ info: HTTPCacheInfo, key: String, cacheType: ImageCacheType) async {
        await each(.concurrent) { await $0.renewHTTPCacheInfo(info, key: key, cacheType: cacheType) }
    }

    public func remove(key: String, cacheType: ImageCacheType) async {
        await each(removePolicy) { await $0.remove(key: key, cacheType: cacheType) }
    }

    public func contains(key: String, cacheType: ImageCacheType) async -> ImageCacheType {
        let policy = containsPolicy
        let targets = targets(policy)
        if policy != .concurrent {
            for cache in targets {
                let found = await cache.contains(key: key, cacheType: cacheType)
                if found != .none { return found }
            }
            return .none
        }
        for stage in Self.stages(of: cacheType) {
            let found = await withTaskGroup(of: ImageCacheType.self) { group in
                for cache in targets { group.addTask { await cache.contains(key: key, cacheType: stage) } }
                for await found in group where found != .none {
                    group.cancelAll()
                    return found
                }
                return ImageCacheType.none
            }
            if found != .none { return found }
        }
        return .none
    }

    public func clear(cacheType: ImageCacheType) async {
        await each(clearPolicy) { await $0.clear(cacheType: cacheType) }
    }

    fileprivate func each(_ policy: Policy, _ operation: @escaping @Sendable (any ImageCache) async -> Void) async {
        let targets = targets(policy)
        if policy == .concurrent {
            await withTaskGroup(of: Void.self) { group in
                for cache in targets { group.addTask { await operation(cache) } }
            }
        } else {
            for cache in targets { await operation(cache) }
        }
    }
}

extension ImageCachesManager: ShutdownCapable {
    /// Shuts down every cache that can be (`ShutdownCapable`), all at once.
    public func shutdown() async {
        await each(.concurrent) { await ($0 as? any ShutdownCapable)?.shutdown() }
    }
}

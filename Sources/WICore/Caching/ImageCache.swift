#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a cache query found.
///
/// Thread safety: a value type; safe to send and share.
public struct ImageCacheQueryResult: Sendable {
    /// The image, from a memory tier (nil for a data-tier hit: caches do not decode).
    public var image: Image?
    /// The stored bytes, when the hit came from a data tier or `.queryMemoryData` asked for them.
    public var data: Data?
    /// Where it was found: `.memory` or `.disk`.
    public var cacheType: ImageCacheType
    /// The HTTP validators and freshness stored with the entry, or nil (none stored).
    public var httpCacheInfo: HTTPCacheInfo?

    public init(image: Image?, data: Data?, cacheType: ImageCacheType, httpCacheInfo: HTTPCacheInfo? = nil) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
        self.httpCacheInfo = httpCacheInfo
    }
}

/// A cache the image manager queries and stores into (SDWebImage's `SDImageCache` protocol).
///
/// WICore composes the standard one, `TieredImageCache` (memory in front of data tiers such as disk), from any
/// `MemoryImageCaching` and `DataCaching` plugins; `ImageCachesManager` combines several caches.
///
/// Thread safety: implementations must be safe to call from any number of tasks at once.
public protocol ImageCache: Sendable {
    /// Looks `key` up in the tiers `cacheType` selects; nil on a miss. Returns a memory image, or a data tier's
    /// bytes undecoded (the manager decodes them in its shared decode stage); with `.queryMemoryData`, a memory
    /// hit carries the data tiers' bytes too. Returns nil promptly when the calling task is cancelled.
    func query(key: String, options: ImageOptions, context: ImageContext, cacheType: ImageCacheType) async
        -> ImageCacheQueryResult?

    /// Stores `image` and/or `data` under `key` in the tiers `cacheType` selects. Data tiers need bytes: when
    /// `data` is nil they encode `image` (with the context's coder and encode options) or skip the tier.
    func store(image: Image?, data: Data?, key: String, cacheType: ImageCacheType, context: ImageContext) async

    /// `store(image:data:key:cacheType:context:)`, keeping `httpCacheInfo` (validators and freshness of the
    /// response) with the entry in every tier that can hold it. The default stores without the info.
    func store(
        image: Image?, data: Data?, httpCacheInfo: HTTPCacheInfo?, key: String, cacheType: ImageCacheType,
        context: ImageContext) async

    /// Replaces the HTTP cache info of the entry under `key` in the tiers `cacheType` selects, without rewriting
    /// its bytes (a 304 renewed it). The default does nothing.
    func renewHTTPCacheInfo(_ info: HTTPCacheInfo, key: String, cacheType: ImageCacheType) async

    /// Removes `key` from the tiers `cacheType` selects.
    func remove(key: String, cacheType: ImageCacheType) async

    /// Where `key` is cached among the tiers `cacheType` selects (`.none` when nowhere). Never decodes.
    func contains(key: String, cacheType: ImageCacheType) async -> ImageCacheType

    /// Empties the tiers `cacheType` selects.
    func clear(cacheType: ImageCacheType) async
}

extension ImageCache {
    /// Stores without the HTTP cache info (a cache that keeps none).
    public func store(
        image: Image?, data: Data?, httpCacheInfo: HTTPCacheInfo?, key: String, cacheType: ImageCacheType,
        context: ImageContext
    ) async {
        await store(image: image, data: data, key: key, cacheType: cacheType, context: context)
    }

    /// Nothing: a cache that keeps no HTTP cache info.
    public func renewHTTPCacheInfo(_ info: HTTPCacheInfo, key: String, cacheType: ImageCacheType) async {}

    /// The callback form of `query`: `completion` runs exactly once, with nil when cancelled before an answer.
    ///
    /// ```swift
    /// let token = cache.query(key: key, options: [], context: .init(), cacheType: .all) { result in ... }
    /// token.cancel()   // completion(nil) runs now unless it already ran
    /// ```
    @discardableResult
    public func query(
        key: String, options: ImageOptions, context: ImageContext, cacheType: ImageCacheType,
        completion: @escaping @Sendable (ImageCacheQueryResult?) -> Void
    ) -> CancellationToken {
        let once = OnceCallback(completion)
        let task = Task {
            let result = await query(key: key, options: options, context: context, cacheType: cacheType)
            once.call(Task.isCancelled ? nil : result)
        }
        return CancellationToken(task: task) {
            task.cancel()
            once.call(nil)
        }
    }
}

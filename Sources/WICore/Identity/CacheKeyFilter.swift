#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns a URL into the cache key (SDWebImage's `SDWebImageCacheKeyFilter`), e.g. to drop a signed query.
///
/// Thread safety: called from any thread; implementations must be `Sendable`.
public protocol CacheKeyFilter: Sendable {
    /// The key for `url`, or nil to not cache this load.
    func cacheKey(for url: URL) -> String?
}

extension CacheKeys {
    /// A cache key filter from a closure.
    public struct BlockKeyFilter: CacheKeyFilter {
        private let body: @Sendable (URL) -> String?
        public init(_ body: @escaping @Sendable (URL) -> String?) { self.body = body }
        public func cacheKey(for url: URL) -> String? { body(url) }
    }
}

/// Chooses the bytes data caches store for an image (SDWebImage's `SDWebImageCacheSerializer`).
///
/// Thread safety: called from a worker thread; implementations must be `Sendable`.
public protocol CacheSerializer: Sendable {
    /// The bytes to store for `image`, given the downloaded bytes (nil when transformed); nil stores nothing.
    func cacheData(for image: Image, originalData: Data?, url: URL) -> Data?
}

extension CacheKeys {
    /// A cache serializer from a closure.
    public struct BlockSerializer: CacheSerializer {
        private let body: @Sendable (Image, Data?, URL) -> Data?
        public init(_ body: @escaping @Sendable (Image, Data?, URL) -> Data?) { self.body = body }
        public func cacheData(for image: Image, originalData: Data?, url: URL) -> Data? {
            body(image, originalData, url)
        }
    }
}

extension ImageManager {
    /// Where callback-form progress and completions run.
    ///
    /// Thread safety: `execute` may be called from any thread.
    public protocol CallbackExecutor: Sendable {
        func execute(_ work: @escaping @Sendable () -> Void)
    }
}

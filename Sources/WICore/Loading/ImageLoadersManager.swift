#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// A prioritized list of loaders that is itself a loader: the last added loader that accepts a URL loads it.
///
/// ```swift
/// let loaders = ImageLoadersManager(loaders: [try CurlImageLoader()])
/// loaders.addLoader(AssetLoader(root: assets, pool: ioPool))   // asked first, for asset: URLs
/// ```
///
/// Thread safety: all methods may be called from any thread at once.
public final class ImageLoadersManager: ImageLoader, Sendable {
    private let registered: Mutex<[any ImageLoader]>

    /// A manager with `loaders`, the last one with the highest priority.
    public init(loaders: [any ImageLoader] = []) {
        registered = Mutex(loaders)
    }

    /// The loaders, highest priority first.
    public var loaders: [any ImageLoader] { registered.withLock { Array($0.reversed()) } }

    /// Adds a loader with the highest priority.
    public func addLoader(_ loader: any ImageLoader) { registered.withLock { $0.append(loader) } }

    /// Removes every loader for which `predicate` is true.
    public func removeLoaders(where predicate: (any ImageLoader) -> Bool) {
        registered.withLock { $0.removeAll(where: predicate) }
    }

    /// The loader that would load `url`.
    public func loader(for url: URL) -> (any ImageLoader)? { loaders.first { $0.canLoad(url) } }

    public func canLoad(_ url: URL) -> Bool { loader(for: url) != nil }

    public func load(
        _ request: ImageLoading.Request, events: @escaping @Sendable (ImageLoading.Event) -> Void,
        completion: @escaping @Sendable (Result<ImageLoadResult, ImageError>) -> Void
    ) -> any ImageLoading.Operation {
        guard let loader = loader(for: request.url) else {
            completion(.failure(ImageError(.invalidURL, "no registered loader accepts \(request.url.absoluteString)")))
            return ImageLoading.FinishedOperation()
        }
        return loader.load(request, events: events, completion: completion)
    }

    public func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool {
        guard let loader = loader(for: url) else { return error.code == .invalidURL }
        return loader.shouldBlockFailedURL(url, error: error)
    }
}

extension ImageLoading {
    /// The operation of a load that completed before it started.
    public struct FinishedOperation: ImageLoading.Operation {
        public init() {}
        public func cancel() {}
        public func setPriority(_ priority: ImageLoading.Priority) {}
    }
}

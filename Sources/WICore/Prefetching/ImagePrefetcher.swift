import Foundation
import Synchronization

/// Loads lists of URLs ahead of need into the caches, a few at a time at low priority (SDWebImage's
/// `SDWebImagePrefetcher`).
///
/// ```swift
/// let prefetcher = ImagePrefetcher(manager: manager)
/// let token = prefetcher.prefetch(urls) { finished, skipped in ... } progress: { done, total in ... }
/// ```
///
/// Thread safety: all methods may be called from any thread at once.
public final class ImagePrefetcher: Sendable {
    /// The manager that loads.
    public let manager: ImageManager
    /// Loads running at once per prefetch (default 3).
    public let maxConcurrentLoads: Int
    /// Options for every load (default `.lowPriority`).
    public let options: ImageOptions
    /// Context for every load.
    public let context: ImageContext
    private let running = Mutex<[ObjectIdentifier: CancellationToken]>([:])

    public init(manager: ImageManager, maxConcurrentLoads: Int = 3, options: ImageOptions = [.lowPriority],
                context: ImageContext = .init()) {
        self.manager = manager
        self.maxConcurrentLoads = max(1, maxConcurrentLoads)
        self.options = options
        self.context = context
    }

    /// Prefetches `urls`. `progress(finished, total)` runs after each URL; `completion(finished, skipped)` runs once
    /// at the end: finished counts every URL (loaded, failed, or never started because of cancellation), skipped
    /// the ones that did not load. `completion` comes first so that a trailing closure is the completion.
    /// Returns a token that cancels the rest of this prefetch.
    @discardableResult
    public func prefetch(_ urls: [URL], completion: (@Sendable (Int, Int) -> Void)? = nil,
                         progress: (@Sendable (Int, Int) -> Void)? = nil) -> CancellationToken {
        let (manager, options, context, width) = (self.manager, self.options, self.context, maxConcurrentLoads)
        let task = Task {
            let counts = Mutex((finished: 0, skipped: 0))
            await withTaskGroup(of: Bool.self) { group in
                var next = 0
                func startNext() {
                    guard next < urls.count else { return }
                    let url = urls[next]
                    next += 1
                    group.addTask { (try? await manager.loadImage(with: url, options: options, context: context)) != nil }
                }
                for _ in 0..<min(width, urls.count) { startNext() }
                for await succeeded in group {
                    let (finished, _) = counts.withLock { c -> (Int, Int) in
                        c.finished += 1
                        if !succeeded { c.skipped += 1 }
                        return (c.finished, c.skipped)
                    }
                    progress?(finished, urls.count)
                    if !Task.isCancelled { startNext() }
                }
            }
            let final = counts.withLock { $0 }
            // URLs never started because of cancellation count as skipped.
            completion?(final.finished + (urls.count - final.finished), final.skipped + (urls.count - final.finished))
        }
        let token = CancellationToken { task.cancel() }
        let id = ObjectIdentifier(token)
        running.withLock { $0[id] = token }
        Task { [weak self] in
            await task.value
            _ = self?.running.withLock { $0.removeValue(forKey: id) }
        }
        return token
    }

    /// Cancels every prefetch in progress.
    public func cancelAll() {
        let tokens = running.withLock { Array($0.values) }
        for token in tokens { token.cancel() }
    }
}

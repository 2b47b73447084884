#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Loads lists of URLs ahead of need into the caches, a few at a time at low priority (SDWebImage's
/// `SDWebImagePrefetcher`).
///
/// ```swift
/// let prefetcher = ImagePrefetcher(manager: manager)
/// let token = prefetcher.prefetch(urls) { finished, skipped in ... } progress: { print($0.finished, $0.total) }
/// ```
///
/// Thread safety: all methods may be called from any thread at once.
public final class ImagePrefetcher: Sendable {
    /// One URL of a prefetch finished.
    public struct Progress: Sendable {
        /// The URL that finished.
        public var url: URL
        /// What its load gave.
        public var result: Result<ImageResult, ImageError>
        /// How long its load took.
        public var duration: Duration
        /// URLs finished so far, this one included.
        public var finished: Int
        /// URLs in the prefetch.
        public var total: Int
    }

    /// The manager that loads.
    public let manager: ImageManager
    /// Loads running at once per prefetch (default 3).
    public let maxConcurrentLoads: Int
    /// Options for every load (default `.lowPriority`).
    public let options: ImageOptions
    /// Context for every load.
    public let context: ImageContext
    private let running = Mutex<[ObjectIdentifier: CancellationToken]>([:])

    public init(
        manager: ImageManager, maxConcurrentLoads: Int = 3, options: ImageOptions = [.lowPriority],
        context: ImageContext = .init()
    ) {
        self.manager = manager
        self.maxConcurrentLoads = max(1, maxConcurrentLoads)
        self.options = options
        self.context = context
    }

    /// Prefetches `urls`. `progress` runs after each URL with its result; `completion(finished, skipped)` runs once
    /// at the end: finished counts every URL (loaded, failed, or never started because of cancellation), skipped
    /// the ones that did not load. `completion` comes first so that a trailing closure is the completion.
    /// Returns a token that cancels the rest of this prefetch.
    @discardableResult
    public func prefetch(
        _ urls: [URL], completion: (@Sendable (Int, Int) -> Void)? = nil,
        progress: (@Sendable (Progress) -> Void)? = nil
    ) -> CancellationToken {
        let (manager, options, context, width) = (self.manager, self.options, self.context, maxConcurrentLoads)
        let task = Task {
            let counts = Mutex((finished: 0, skipped: 0))
            await withTaskGroup(of: (URL, Result<ImageResult, ImageError>, Duration).self) { group in
                var next = 0
                func startNext() {
                    guard next < urls.count else { return }
                    let url = urls[next]
                    next += 1
                    group.addTask {
                        let started = ContinuousClock.now
                        do throws(ImageError) {
                            let result = try await manager.loadImage(with: url, options: options, context: context)
                            return (url, .success(result), ContinuousClock.now - started)
                        } catch {
                            return (url, .failure(error), ContinuousClock.now - started)
                        }
                    }
                }
                for _ in 0..<min(width, urls.count) { startNext() }
                for await (url, result, duration) in group {
                    let finished = counts.withLock { c -> Int in
                        c.finished += 1
                        if case .failure = result { c.skipped += 1 }
                        return c.finished
                    }
                    progress?(
                        Progress(url: url, result: result, duration: duration, finished: finished, total: urls.count))
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

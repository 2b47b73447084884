#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Fetches the bytes of an image for a URL (SDWebImage's `SDImageLoader`): the curl loader, or an app's own
/// (an `asset:` scheme, a database, a test mock). `ImageLoadersManager` picks the first that accepts a URL.
///
/// Thread safety: implementations must accept calls from any number of threads at once.
public protocol ImageLoader: Sendable {
    /// Whether this loader handles `url` (by scheme, host...), without doing I/O.
    func canLoad(_ url: URL) -> Bool

    /// Starts loading. `events` receives the response head, progress and (when the request wants partial data)
    /// each chunk, in order; `completion` runs exactly once, last, also after `cancel()` (with code 2002).
    func load(
        _ request: ImageLoading.Request, events: @escaping @Sendable (ImageLoading.Event) -> Void,
        completion: @escaping @Sendable (Result<ImageLoadResult, ImageError>) -> Void
    ) -> any ImageLoading.Operation

    /// Whether a failure should put `url` on the manager's failed-URL list.
    func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool

    /// The identity of `request` as this loader would send it: loads share work only when theirs are equal.
    /// The default is `ImageLoading.Identity(request)`; a loader that adds headers of its own passes them as
    /// `defaultHeaders`. Called from any thread; runs the request modifier.
    func identity(of request: ImageLoading.Request) -> ImageLoading.Identity
}

extension ImageLoading {
    /// A load in progress.
    ///
    /// Thread safety: both methods may be called from any thread, any number of times.
    public protocol Operation: Sendable {
        /// Stops this caller's interest; the caller's completion gets 2002. Idempotent.
        func cancel()
        /// Changes the priority while the load is queued.
        func setPriority(_ priority: ImageLoading.Priority)
    }
}

extension ImageLoader {
    /// SDWebImage's rule: only a bad URL or bad image data blocks a URL; cancellation, HTTP status errors (404
    /// too) and transient network failures do not. Loaders refine this for their own error codes.
    public func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool {
        error.code == .invalidURL || error.code == .badImageData
    }

    public func identity(of request: ImageLoading.Request) -> ImageLoading.Identity { ImageLoading.Identity(request) }

    /// Loads `request` and returns its result; cancelling the calling task cancels the load (error 2002).
    public func load(
        _ request: ImageLoading.Request,
        events: @escaping @Sendable (ImageLoading.Event) -> Void = { _ in }
    ) async throws(ImageError)
        -> ImageLoadResult
    {
        let relay = CancellationRelay()
        let result: Result<ImageLoadResult, ImageError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let operation = load(request, events: events) { continuation.resume(returning: $0) }
                relay.onCancel { operation.cancel() }
            }
        } onCancel: {
            relay.cancel()
        }
        return try result.get()
    }
}

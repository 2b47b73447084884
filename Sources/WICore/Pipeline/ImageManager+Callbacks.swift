#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

extension ImageManager {
    /// A caller's handle on one callback-form load.
    ///
    /// Thread safety: all methods may be called from any thread, any number of times.
    public final class RequestToken: Sendable {
        private let state = Mutex<(task: Task<Void, Never>?, ticket: ImageManager.ImageTicket?, priority: ImageLoading.Priority?,
                                   cancelled: Bool)>((nil, nil, nil, false))
        private let cancelHandler: @Sendable () -> Bool
        private let manager: ImageManager

        init(manager: ImageManager, cancel: @escaping @Sendable () -> Bool) {
            self.manager = manager
            self.cancelHandler = cancel
        }

        func attach(_ task: Task<Void, Never>) {
            let cancelled = state.withLock { s -> Bool in
                s.task = task
                return s.cancelled
            }
            if cancelled { task.cancel() }
        }

        func attach(_ ticket: ImageManager.ImageTicket) {
            let pending = state.withLock { s -> ImageLoading.Priority? in
                s.ticket = ticket
                return s.priority
            }
            if let pending { manager.imageTasks.setPriority(pending, for: ticket) }
        }

        /// Cancels this caller's load: its completion gets 2002 now, unless it already completed. Other callers
        /// sharing the work are not affected. Returns whether this call cancelled it (false: already done).
        @discardableResult
        public func cancel() -> Bool {
            let cancelled = cancelHandler()
            state.withLock { s in
                s.cancelled = true
                return s.task
            }?.cancel()
            return cancelled
        }

        /// Changes this caller's priority while the load waits to start.
        public func setPriority(_ priority: ImageLoading.Priority) {
            let ticket = state.withLock { s -> ImageManager.ImageTicket? in
                s.priority = priority
                return s.ticket
            }
            if let ticket { manager.imageTasks.setPriority(priority, for: ticket) }
        }
    }
}

extension ImageManager {
    /// Loads the image for `url` and calls `completed` exactly once (twice with `.refreshCached` when the cached
    /// image is delivered first and the server then sends new bytes; a 304 makes no second call), on `context[.callbackExecutor]` or else on the
    /// thread that finished the work. `progress` gets byte counts and partial images.
    ///
    /// The load is registered before this returns: `isRunning` is true and `cancelAll()` or `shutdown()` reach it
    /// (completion with 2002). After `shutdown()`, `completed` gets 1010 (`.shutDown`) at once.
    ///
    /// ```swift
    /// let token = manager.loadImage(with: url) { result in print(result) }
    /// token.cancel()   // completed(.failure(2002)) unless it already completed
    /// ```
    @discardableResult
    public func loadImage(
        with url: URL?, options: ImageOptions = [], context: ImageContext = .init(),
        progress: (@Sendable (ImageLoading.Progress) -> Void)? = nil,
        completed: @escaping @Sendable (Result<ImageResult, ImageError>) -> Void
    ) -> ImageManager.RequestToken {
        let executor = context[.callbackExecutor]
        let deliver: @Sendable (Result<ImageResult, ImageError>) -> Void = { result in
            if let executor { executor.execute { completed(result) } } else { completed(result) }
        }
        let first = OnceCallback<Result<ImageResult, ImageError>>(deliver)
        let cancelledResult: Result<ImageResult, ImageError> = .failure(ImageManager.cancelled)
        let token = ImageManager.RequestToken(manager: self, cancel: { first.call(cancelledResult) })
        guard let id = tracker.register(cancel: { token.cancel() }) else {
            // Refused, and observed like a refused async load (a failure with its span, duration and log).
            let refused: Result<ImageResult, ImageError> = .failure(Self.shutDownError)
            endObservation(beginObservation(url: url), refused, url: url, options: options, context: context)
            first.call(refused)
            return token
        }
        var onProgress: (@Sendable (ImageLoading.Progress) -> Void)?
        if let progress {
            onProgress = { event in
                if let executor { executor.execute { progress(event) } } else { progress(event) }
            }
        }
        let reportProgress = onProgress
        let order = nextHandover()
        let task = Task { [self] in
            defer { tracker.finish(id) }
            // The same `webimage.load` span, load counters, duration and in-flight gauge as the async form (the
            // task inherits the caller's service context, so the caller's span is the parent).
            var resolved: ResolvedRequest?
            let result: Result<ImageResult, ImageError>
            do throws(ImageError) {
                result = .success(try await observed(url: url, options: options, context: context) {
                    () async throws(ImageError) -> ImageResult in
                    let request = try prepare(url: url, options: options, context: context, order: order)
                    resolved = request
                    emit(request.url, .started)
                    var shared = request
                    let result = if let hit = await memoryHit(&shared) {
                        hit
                    } else {
                        await run(shared, priorityTicket: { token.attach($0) }, progress: reportProgress)
                    }
                    switch result {
                    case .success(let value):
                        report(value, url: request.url)
                        emit(request.url, .finished(value.cacheType))
                    case .failure(let error): emit(request.url, error.code == .cancelled ? .cancelled : .failed(error))
                    }
                    return try result.get()
                })
            } catch {
                result = .failure(error)
            }
            guard first.call(result), let request = resolved, case .success(let value) = result,
                  request.options.contains(.refreshCached), !Task.isCancelled, needsRefresh(value) else { return }
            refresh(request, after: value) { outcome in
                if case .replaced(let replaced) = outcome { deliver(.success(replaced)) }
            }
        }
        token.attach(task)
        return token
    }

    /// Whether `.refreshCached` revalidates after `answer`: it came from the cache, not from a revalidation.
    func needsRefresh(_ answer: ImageResult) -> Bool {
        answer.cacheType != .none && answer.httpCacheOutcome != .revalidated && answer.httpCacheOutcome != .replaced
    }

    /// `.refreshCached` after an answer from the cache: revalidates the entry in the background with its stored
    /// validators. A 304 renews the entry; new bytes replace the entry in every tier; `waiter` learns which (the
    /// callback form's second call is the replaced result).
    func refresh(_ request: ResolvedRequest, after answer: ImageResult, waiter: RefreshWaiter?) {
        revalidateInBackground(request, info: answer.httpCacheInfo, cachedBytes: answer.sourceData, waiter: waiter)
    }
}

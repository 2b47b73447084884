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
        private let state = Mutex<
            (
                task: Task<Void, Never>?, ticket: ImageManager.ImageTicket?, priority: ImageLoading.Priority?,
                cancelled: Bool
            )
        >((nil, nil, nil, false))
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
        var caller = Caller(registration: id, priorityTicket: { token.attach($0) })
        if let progress {
            caller.progress = { event in
                if let executor { executor.execute { progress(event) } } else { progress(event) }
            }
        }
        // The second call (a revalidation's new image) never comes before the first, nor after a cancelled first.
        let second = SecondAnswer(deliver)
        caller.replaced = { second.offer(.success($0)) }
        let order = nextHandover()
        let task = Task { [self, caller] in
            defer { tracker.finish(id) }
            let result = await load(url, options: options, context: context, order: order, caller: caller)
            second.firstAnswered(first.call(result))
        }
        token.attach(task)
        return token
    }
}

/// Holds a callback form's second answer until its first answer went out; drops it when the first was not this
/// load's (the caller cancelled first).
///
/// Thread safety: one lock guards the state; the answer is delivered outside it.
final class SecondAnswer: Sendable {
    private enum State {
        case waiting(Result<ImageResult, ImageError>?)
        case open
        case closed
    }

    private let state = Mutex(State.waiting(nil))
    private let deliver: @Sendable (Result<ImageResult, ImageError>) -> Void

    init(_ deliver: @escaping @Sendable (Result<ImageResult, ImageError>) -> Void) {
        self.deliver = deliver
    }

    /// The second answer: delivered now when the first went out, else held (or dropped when closed).
    func offer(_ answer: Result<ImageResult, ImageError>) {
        let now = state.withLock { s -> Bool in
            switch s {
            case .open: return true
            case .closed: return false
            case .waiting:
                s = .waiting(answer)
                return false
            }
        }
        if now { deliver(answer) }
    }

    /// The first answer went out (`delivered`: it was this load's result): a held second answer follows.
    func firstAnswered(_ delivered: Bool) {
        let held = state.withLock { s -> Result<ImageResult, ImageError>? in
            defer { s = delivered ? .open : .closed }
            if case .waiting(let held) = s { return held }
            return nil
        }
        if delivered, let held { deliver(held) }
    }
}

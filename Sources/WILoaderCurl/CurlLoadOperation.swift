#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WICore

/// One caller's handle on a load: its own callbacks, priority and cancellation (SDWebImage's download token).
///
/// Thread safety: `cancel` and `setPriority` may be called from any thread; `send` and `finish` run on the
/// loader's thread (or the worker that finishes a file:/data: load) and deliver in order, the completion once.
final class CurlLoadOperation: ImageLoading.Operation {
    private struct State {
        var completion: (@Sendable (Result<ImageLoadResult, ImageError>) -> Void)?
        var cancelRequested = false
        var priority: ImageLoading.Priority
    }

    let request: ImageLoading.Request
    /// The request's identity as this loader sends it: the key of the transfer it joins.
    let identity: ImageLoading.Identity
    private let events: @Sendable (ImageLoading.Event) -> Void
    private let state: Mutex<State>
    /// Where cancellations and priority changes go: the engine (http, https), or nil for loads that finish on
    /// their own (file:, data:).
    private let engine: CurlEngine?

    init(
        request: ImageLoading.Request, identity: ImageLoading.Identity, engine: CurlEngine?,
        events: @escaping @Sendable (ImageLoading.Event) -> Void,
        completion: @escaping @Sendable (Result<ImageLoadResult, ImageError>) -> Void
    ) {
        self.request = request
        self.identity = identity
        self.engine = engine
        self.events = events
        state = Mutex(State(completion: completion, priority: request.priority))
    }

    func cancel() {
        let first = state.withLock { s -> Bool in
            defer { s.cancelRequested = true }
            return !s.cancelRequested && s.completion != nil
        }
        guard first else { return }
        if let engine { engine.send(.cancel(self)) } else { finish(.failure(.loadCancelled)) }
    }

    func setPriority(_ priority: ImageLoading.Priority) {
        state.withLock { $0.priority = priority }
        engine?.send(.reprioritize(self))
    }

    /// The caller's current priority.
    var priority: ImageLoading.Priority { state.withLock { $0.priority } }
    /// Whether the caller cancelled.
    var isCancelled: Bool { state.withLock { $0.cancelRequested } }
    /// Whether the completion ran.
    var isFinished: Bool { state.withLock { $0.completion == nil } }

    /// Delivers `event` unless the caller already completed.
    func send(_ event: ImageLoading.Event) {
        if case .partialData = event, !request.wantsPartialData { return }
        guard !isFinished else { return }
        events(event)
    }

    /// Runs the completion with `result`, the first time only.
    func finish(_ result: Result<ImageLoadResult, ImageError>) {
        let completion = state.withLock { s in
            defer { s.completion = nil }
            return s.completion
        }
        completion?(result)
    }
}

extension ImageError {
    /// The error a cancelled caller receives (2002).
    static var loadCancelled: ImageError { ImageError(.cancelled, "the load was cancelled") }
}

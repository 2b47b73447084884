import Synchronization

/// Cancels one piece of work; cancelling twice does nothing more.
///
/// Thread safety: `cancel()` may be called from any thread, any number of times; the handler runs at most once.
public final class CancellationToken: Sendable {
    private let handler: Mutex<(@Sendable () -> Void)?>
    /// The work's task, when it is one: tests await its end.
    private let task: Task<Void, Never>?

    /// A token that runs `handler` on its first `cancel()`.
    public init(_ handler: @escaping @Sendable () -> Void) {
        self.handler = Mutex(handler)
        task = nil
    }

    /// A token for `task` that runs `handler` on its first `cancel()`.
    package init(task: Task<Void, Never>, _ handler: @escaping @Sendable () -> Void) {
        self.handler = Mutex(handler)
        self.task = task
    }

    /// Returns once the work's task has ended (at once for a token without one).
    package func finished() async { await task?.value }

    /// Cancels the work (idempotent).
    public func cancel() {
        let run = handler.withLock { current -> (@Sendable () -> Void)? in
            defer { current = nil }
            return current
        }
        run?()
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { handler.withLock { $0 == nil } }
}

/// Calls a completion at most once, whoever gets there first.
///
/// Thread safety: `call` may race from several threads; exactly one call runs the completion.
package final class OnceCallback<Value: Sendable>: Sendable {
    private let completion: Mutex<(@Sendable (Value) -> Void)?>

    package init(_ completion: @escaping @Sendable (Value) -> Void) {
        self.completion = Mutex(completion)
    }

    /// Runs the completion with `value` if it has not run yet; returns whether it ran now.
    @discardableResult
    package func call(_ value: Value) -> Bool {
        let run = completion.withLock { current -> (@Sendable (Value) -> Void)? in
            defer { current = nil }
            return current
        }
        run?(value)
        return run != nil
    }
}

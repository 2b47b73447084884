import Synchronization

/// Runs an async body once; every caller of `run` returns after that one run has finished (shutdowns).
///
/// Thread safety: `run` may be called from any number of tasks at once.
package final class AsyncOnce: Sendable {
    private enum Phase {
        case idle
        case running([CheckedContinuation<Void, Never>])
        case done
    }

    private let phase = Mutex(Phase.idle)

    package init() {}

    /// Runs `body` if no call has yet; otherwise waits for the run in progress (or returns if it is done).
    package func run(_ body: @Sendable () async -> Void) async {
        let first = phase.withLock { p -> Bool in
            guard case .idle = p else { return false }
            p = .running([])
            return true
        }
        if first {
            await body()
            let waiters = phase.withLock { p -> [CheckedContinuation<Void, Never>] in
                defer { p = .done }
                if case .running(let waiters) = p { return waiters }
                return []
            }
            for waiter in waiters { waiter.resume() }
            return
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = phase.withLock { p -> Bool in
                guard case .running(var waiters) = p else { return true }
                waiters.append(continuation)
                p = .running(waiters)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Whether `run` has started.
    package var hasStarted: Bool {
        phase.withLock { p in
            if case .idle = p { return false }
            return true
        }
    }
}

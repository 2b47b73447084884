import Synchronization

/// The manager's record of its callers' loads and its background work (stores, revalidations): what
/// `isRunning`, `cancelAll()`, `waitUntilIdle()` and `shutdown()` act on. A load is registered before its call
/// returns, so that no call can slip past `cancelAll()` or a shutdown.
///
/// Thread safety: one lock guards the table; cancel handlers and continuations run outside it.
final class WorkTracker: Sendable {
    private struct State {
        var nextID = 0
        var loads: [Int: @Sendable () -> Void] = [:]
        var background: [Int: Task<Void, Never>] = [:]
        /// Background work that `beginShutdown()` cancels (revalidations; stores finish).
        var stoppable: Set<Int> = []
        var isShutDown = false
        var idleWaiters: [CheckedContinuation<Void, Never>] = []

        var isIdle: Bool { loads.isEmpty && background.isEmpty }

        mutating func takeWaitersIfIdle() -> [CheckedContinuation<Void, Never>] {
            guard isIdle else { return [] }
            defer { idleWaiters = [] }
            return idleWaiters
        }
    }

    private let state = Mutex(State())

    /// Registers a load whose `cancel` ends it with 2002; nil once shut down.
    func register(cancel: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { s -> Int? in
            guard !s.isShutDown else { return nil }
            s.nextID += 1
            s.loads[s.nextID] = cancel
            return s.nextID
        }
    }

    /// Forgets a load that completed.
    func finish(_ id: Int) {
        let waiters = state.withLock { s in
            s.loads[id] = nil
            return s.takeWaitersIfIdle()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Runs `work` in the background as tracked work; false (and `work` does not run) once shut down.
    /// `stopsAtShutdown`: `beginShutdown()` cancels it (a revalidation) instead of letting it finish (a store).
    @discardableResult
    func background(stopsAtShutdown: Bool = false, _ work: @escaping @Sendable () async -> Void) -> Bool {
        state.withLock { s -> Bool in
            guard !s.isShutDown else { return false }
            s.nextID += 1
            let id = s.nextID
            if stopsAtShutdown { s.stoppable.insert(id) }
            // The task cannot end before it is in the table: its last step takes this lock.
            s.background[id] = Task { [self] in
                await work()
                let waiters = state.withLock { s in
                    s.background[id] = nil
                    s.stoppable.remove(id)
                    return s.takeWaitersIfIdle()
                }
                for waiter in waiters { waiter.resume() }
            }
            return true
        }
    }

    var isRunning: Bool { state.withLock { !$0.isIdle } }

    /// Cancels every registered load.
    func cancelAll() {
        for cancel in state.withLock({ Array($0.loads.values) }) { cancel() }
    }

    /// Refuses new work from now on, cancels the loads in flight and the stoppable background work; other
    /// background work goes on.
    func beginShutdown() {
        let stopping = state.withLock { s -> [Task<Void, Never>] in
            s.isShutDown = true
            return s.stoppable.compactMap { s.background[$0] }
        }
        cancelAll()
        for task in stopping { task.cancel() }
    }

    var isShutDown: Bool { state.withLock { $0.isShutDown } }

    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { s -> Bool in
                if s.isIdle { return true }
                s.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }
}

import Metrics
import Synchronization

/// Shares one piece of async work among every caller that asks for the same key (Nuke's task coalescing).
///
/// Each caller waits for the shared result and receives the work's events; a caller that is cancelled gets
/// `.cancelled` at once without disturbing the others; the work is cancelled when its last caller leaves. The
/// work sees the highest priority among its callers and is told when that changes.
///
/// Thread safety: all methods may be called from any task; one lock guards the table of work and waiters.
package final class WorkRegistry<Key: Hashable & Sendable, Value: Sendable, Event: Sendable>: Sendable {
    /// What the work closure gets: a way to talk to its waiters.
    package struct Context: Sendable {
        fileprivate let registry: WorkRegistry
        fileprivate let key: Key
        fileprivate let entry: Entry

        /// Sends `event` to every current waiter.
        package func broadcast(_ event: Event) {
            let handlers = registry.state.withLock { _ in entry.waiters.values.map(\.onEvent) }
            for handler in handlers { handler(event) }
        }

        /// The highest priority among the current waiters.
        package var priority: ImageLoading.Priority { registry.state.withLock { _ in entry.priority } }

        /// Runs `handler` whenever the highest priority changes.
        package func onPriorityChange(_ handler: @escaping @Sendable (ImageLoading.Priority) -> Void) {
            registry.state.withLock { _ in entry.priorityHandler = handler }
        }
    }

    fileprivate struct Waiter {
        var continuation: CheckedContinuation<Result<Value, ImageError>, Never>
        var priority: ImageLoading.Priority
        var onEvent: @Sendable (Event) -> Void
        /// Leaving last, wait for the cancelled work to end before returning (`CancelledWork.isAwaited`).
        var awaitsWork = false
    }

    // @unchecked Sendable: every stored property is read and written only while `WorkRegistry.state` is locked.
    fileprivate final class Entry: @unchecked Sendable {
        private(set) var waiters: [Int: Waiter] = [:]
        /// How many waiters ask for each priority (by raw value), so that finding the highest never visits every
        /// waiter: a join, a leave or a priority change costs the same however many callers share the work (it
        /// was a scan of all of them, quadratic when thousands of loads joined one URL).
        private var waitersAtPriority = [Int](repeating: 0, count: ImageLoading.Priority.allCases.count)
        var task: Task<Void, Never>?
        /// Last waiters that left and asked to be answered once the cancelled work has ended (`finish` does).
        var leavers: [Waiter] = []
        var priority = ImageLoading.Priority.low
        var priorityHandler: (@Sendable (ImageLoading.Priority) -> Void)?

        func add(_ waiter: Waiter, id: Int) {
            waiters[id] = waiter
            waitersAtPriority[waiter.priority.rawValue] += 1
        }

        func remove(id: Int) -> Waiter? {
            guard let waiter = waiters.removeValue(forKey: id) else { return nil }
            waitersAtPriority[waiter.priority.rawValue] -= 1
            return waiter
        }

        func removeAll() -> [Waiter] {
            defer {
                waiters.removeAll()
                waitersAtPriority = waitersAtPriority.map { _ in 0 }
            }
            return Array(waiters.values)
        }

        /// Changes a waiter's priority; false when it is not waiting here.
        func setPriority(_ priority: ImageLoading.Priority, id: Int) -> Bool {
            guard let old = waiters[id]?.priority else { return false }
            waiters[id]!.priority = priority
            waitersAtPriority[old.rawValue] -= 1
            waitersAtPriority[priority.rawValue] += 1
            return true
        }

        /// Recomputes the highest priority; returns the handler to call (outside the lock) when it changed.
        func refreshPriority() -> (@Sendable () -> Void)? {
            let highest = ImageLoading.Priority.allCases.last { waitersAtPriority[$0.rawValue] > 0 } ?? .low
            guard highest != priority else { return nil }
            priority = highest
            guard let handler = priorityHandler else { return nil }
            return { handler(highest) }
        }
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var nextWaiterID = 0
        var started = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// A caller's handle, for changing its priority while it waits.
    package struct Ticket: Sendable {
        package let key: Key
        package let waiterID: Int
    }

    /// Joins (or starts) the work for `key` and waits for its result.
    ///
    /// `ticket` receives the caller's handle before waiting starts; `work` runs once per key at a time;
    /// `coalesced` counts each caller that joins work already running. The caller leaves with `.cancelled` when its
    /// task is cancelled or `cancellation` is.
    package func run(
        key: Key, priority: ImageLoading.Priority, onEvent: @escaping @Sendable (Event) -> Void = { _ in },
        ticket: @Sendable (Ticket) -> Void = { _ in }, coalesced: Counter? = nil,
        cancellation: WaiterCancellation? = nil,
        work: @escaping @Sendable (Context) async -> Result<Value, ImageError>
    ) async -> Result<Value, ImageError> {
        let awaitsWork = CancelledWork.isAwaited
        let waiterID = state.withLock { s -> Int in
            s.nextWaiterID += 1
            return s.nextWaiterID
        }
        ticket(Ticket(key: key, waiterID: waiterID))
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Joining, and starting the work for a new key, is one step under the lock: a caller cancelled
                // before it (its task, or `cancellation`) never joins nor starts anything, and a leave at any later
                // moment finds both the waiter and the task to cancel.
                let joined = state.withLock { s -> (isNew: Bool, notify: (@Sendable () -> Void)?)? in
                    if Task.isCancelled
                        || (cancellation?.join({ [self] in leave(key: key, waiterID: waiterID) }) ?? false)
                    {
                        return nil
                    }
                    let existing = s.entries[key]
                    let entry = existing ?? Entry()
                    entry.add(
                        Waiter(
                            continuation: continuation, priority: priority, onEvent: onEvent, awaitsWork: awaitsWork),
                        id: waiterID)
                    if existing == nil {
                        s.entries[key] = entry
                        s.started += 1
                        let context = Context(registry: self, key: key, entry: entry)
                        entry.task = Task { [self] in
                            let result = await work(context)
                            finish(key: key, entry: entry, result: result)
                        }
                    }
                    return (existing == nil, entry.refreshPriority())
                }
                guard let joined else {
                    continuation.resume(returning: .failure(ImageError(.cancelled, "the request was cancelled")))
                    return
                }
                joined.notify?()
                if !joined.isNew { coalesced?.increment() }
            }
        } onCancel: {
            leave(key: key, waiterID: waiterID)
        }
    }

    /// Changes one waiter's priority.
    package func setPriority(_ priority: ImageLoading.Priority, for ticket: Ticket) {
        let notify = state.withLock { s -> (@Sendable () -> Void)? in
            guard let entry = s.entries[ticket.key], entry.setPriority(priority, id: ticket.waiterID) else {
                return nil
            }
            return entry.refreshPriority()
        }
        notify?()
    }

    /// Removes a waiter (it gets `.cancelled`); cancels the work when it was the last, and then, when the waiter
    /// asked for it, answers it only once the work has ended.
    private func leave(key: Key, waiterID: Int) {
        let (waiter, task, notify) = state.withLock { s -> (Waiter?, Task<Void, Never>?, (@Sendable () -> Void)?) in
            guard let entry = s.entries[key], let waiter = entry.remove(id: waiterID) else {
                return (nil, nil, nil)
            }
            if entry.waiters.isEmpty {
                s.entries[key] = nil
                // Answered by `finish` once the work has ended, rather than now.
                if waiter.awaitsWork, entry.task != nil {
                    entry.leavers.append(waiter)
                    return (nil, entry.task, nil)
                }
                return (waiter, entry.task, nil)
            }
            return (waiter, nil, entry.refreshPriority())
        }
        waiter?.continuation.resume(returning: .failure(ImageError(.cancelled, "the request was cancelled")))
        task?.cancel()
        notify?()
    }

    private func finish(key: Key, entry: Entry, result: Result<Value, ImageError>) {
        let (waiters, leavers) = state.withLock { s -> ([Waiter], [Waiter]) in
            if s.entries[key] === entry { s.entries[key] = nil }
            defer { entry.leavers = [] }
            return (entry.removeAll(), entry.leavers)
        }
        for waiter in waiters { waiter.continuation.resume(returning: result) }
        for leaver in leavers {
            leaver.continuation.resume(returning: .failure(ImageError(.cancelled, "the request was cancelled")))
        }
    }

    /// Work currently running.
    package var activeCount: Int { state.withLock { $0.entries.count } }
    /// How many callers wait for the work of `key` (0 when none runs).
    package func waiterCount(for key: Key) -> Int { state.withLock { $0.entries[key]?.waiters.count ?? 0 } }
    /// How many callers wait, over all work (tests wait for every caller to have joined).
    package var totalWaiterCount: Int { state.withLock { $0.entries.values.reduce(0) { $0 + $1.waiters.count } } }
    /// How many times work was started (for tests and statistics).
    package var startedCount: Int { state.withLock { $0.started } }
    /// Cancels every running work; its waiters get `.cancelled`.
    package func cancelAll() {
        let entries = state.withLock { s -> [(Key, [Int])] in s.entries.map { ($0.key, Array($0.value.waiters.keys)) } }
        for (key, ids) in entries { for id in ids { leave(key: key, waiterID: id) } }
    }
}

/// A caller's cancellation from outside its task (the manager's `cancelAll()` and `shutdown()`), for
/// `WorkRegistry.run(cancellation:)`: made before the caller joins, it ends that caller with `.cancelled` exactly
/// once, whether `cancel()` comes before the caller has joined, while it waits, or after it got its result (then it
/// does nothing). Other callers of the same work are not affected; the work stops when its last caller leaves.
///
/// Thread safety: `cancel()` may be called from any thread, any number of times.
package final class WaiterCancellation: Sendable {
    private enum State {
        case notJoined
        /// Waiting: how to make it leave.
        case joined(@Sendable () -> Void)
        case cancelled
    }

    private let state = Mutex(State.notJoined)

    package init() {}

    /// Cancels the caller: at once when it waits, when it joins otherwise.
    package func cancel() {
        let leave = state.withLock { s -> (@Sendable () -> Void)? in
            defer { s = .cancelled }
            guard case .joined(let leave) = s else { return nil }
            return leave
        }
        leave?()
    }

    /// Records how the caller leaves, once it waits; true when it was cancelled before (it leaves at once).
    fileprivate func join(_ leave: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { s -> Bool in
            if case .cancelled = s { return true }
            s = .joined(leave)
            return false
        }
    }
}

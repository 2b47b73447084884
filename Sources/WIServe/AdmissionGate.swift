import Synchronization

/// At most `concurrency` requests work at once and `queue` more wait in line (first come, first served); the
/// rest are refused at once, so memory stays bounded under any load.
///
/// Thread safety: every method may be called from any task; the state is in a `Mutex`.
final class AdmissionGate: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var active = 0
        var waiting: [Waiter] = []
        var nextID: UInt64 = 0
        /// Waiters admitted to the line whose continuation is not stored yet, and those of them cancelled.
        var pending: Set<UInt64> = []
        var cancelled: Set<UInt64> = []
    }

    let concurrency: Int
    let queue: Int
    private let state = Mutex(State())

    init(concurrency: Int, queue: Int) {
        self.concurrency = concurrency
        self.queue = queue
    }

    /// Requests working and waiting now (tests wait for exact counts instead of sleeping).
    var counts: (active: Int, waiting: Int) { state.withLock { ($0.active, $0.waiting.count + $0.pending.count) } }

    /// Takes a slot: at once when one is free, after waiting when the line has room; false when the line is full
    /// or the task was cancelled while waiting. A true answer must be paired with `release()`.
    func acquire() async -> Bool {
        enum Decision {
            case admitted, full, wait(UInt64)
        }
        let decision = state.withLock { s -> Decision in
            if s.active < self.concurrency {
                s.active += 1
                return .admitted
            }
            guard s.waiting.count + s.pending.count < self.queue else { return .full }
            s.nextID += 1
            s.pending.insert(s.nextID)
            return .wait(s.nextID)
        }
        let id: UInt64
        switch decision {
        case .admitted: return true
        case .full: return false
        case .wait(let waiterID): id = waiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let cancelledEarly = self.state.withLock { s -> Bool in
                    s.pending.remove(id)
                    if s.cancelled.remove(id) != nil { return true }
                    s.waiting.append(Waiter(id: id, continuation: continuation))
                    return false
                }
                if cancelledEarly { continuation.resume(returning: false) }
            }
        } onCancel: {
            let waiter = self.state.withLock { s -> Waiter? in
                guard let index = s.waiting.firstIndex(where: { $0.id == id }) else {
                    if s.pending.contains(id) { s.cancelled.insert(id) }
                    return nil
                }
                return s.waiting.remove(at: index)
            }
            waiter?.continuation.resume(returning: false)
        }
    }

    /// Gives the slot to the first waiter, or frees it.
    func release() {
        let next = state.withLock { s -> Waiter? in
            if s.waiting.isEmpty {
                s.active -= 1
                return nil
            }
            return s.waiting.removeFirst()
        }
        next?.continuation.resume(returning: true)
    }
}

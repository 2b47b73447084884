import Synchronization

/// At most `concurrency` requests work at once and `queue` more wait in line (first come, first served); the
/// rest are refused at once, so memory stays bounded under any load.
///
/// Thread safety: every method may be called from any task; the state is in a `Mutex`.
package final class AdmissionGate: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var active = 0
        var waiting: [Waiter] = []
        var nextID: UInt64 = 0
        /// Waiters admitted to the line whose continuation is not stored yet, those of them cancelled, and those
        /// a release handed its slot to before they got there (the slot stays counted as active for them).
        var pending: Set<UInt64> = []
        var cancelled: Set<UInt64> = []
        var granted: Set<UInt64> = []

        /// Gives a slot that is being let go to the first waiter in line, else to the oldest pending waiter not
        /// granted one yet, else frees it; returns the waiter to resume (outside the lock).
        mutating func passOn() -> Waiter? {
            if !waiting.isEmpty { return waiting.removeFirst() }
            if let next = pending.subtracting(granted).min() {
                granted.insert(next)
                return nil
            }
            active -= 1
            return nil
        }
    }

    package let concurrency: Int
    package let queue: Int
    private let state = Mutex(State())

    package init(concurrency: Int, queue: Int) {
        self.concurrency = concurrency
        self.queue = queue
    }

    /// Requests working and waiting now (tests wait for exact counts instead of sleeping).
    package var counts: (active: Int, waiting: Int) {
        state.withLock { ($0.active, $0.waiting.count + $0.pending.count) }
    }

    /// What `tryAcquire()` decided: a slot, a place in the line (pass the ticket to `wait(for:)`), or a refusal.
    package enum Admission: Equatable {
        case admitted, refused
        case queued(ticket: UInt64)
    }

    /// Decides at once, without suspending: one lock, no allocation unless the request joins the line. The cheap
    /// path of every refusal.
    package func tryAcquire() -> Admission {
        state.withLock { s -> Admission in
            if s.active < self.concurrency {
                s.active += 1
                return .admitted
            }
            guard s.waiting.count + s.pending.count < self.queue else { return .refused }
            s.nextID += 1
            s.pending.insert(s.nextID)
            return .queued(ticket: s.nextID)
        }
    }

    /// Takes a slot: at once when one is free, after waiting when the line has room; false when the line is full
    /// or the task was cancelled while waiting. A true answer must be paired with `release()`.
    package func acquire() async -> Bool {
        switch tryAcquire() {
        case .admitted: true
        case .refused: false
        case .queued(let ticket): await wait(for: ticket)
        }
    }

    /// Waits in line with the ticket `tryAcquire()` gave: true with a slot (pair it with `release()`), false when
    /// the task was cancelled first.
    package func wait(for id: UInt64) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                // A release may have come between the ticket and this point: it handed its slot to this waiter
                // (`granted`) rather than freeing it, so the waiter takes it now instead of waiting for another.
                let (answer, next) = self.state.withLock { s -> (Bool?, Waiter?) in
                    s.pending.remove(id)
                    let granted = s.granted.remove(id) != nil
                    if s.cancelled.remove(id) != nil { return (false, granted ? s.passOn() : nil) }
                    if granted { return (true, nil) }
                    s.waiting.append(Waiter(id: id, continuation: continuation))
                    return (nil, nil)
                }
                next?.continuation.resume(returning: true)
                if let answer { continuation.resume(returning: answer) }
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

    /// `wait(for:)` until `deadline`: true with a slot (pair it with `release()`), false when the deadline passed
    /// or the task was cancelled first.
    package func wait(for id: UInt64, until deadline: ContinuousClock.Instant) async -> Bool {
        await withTaskGroup(of: Bool?.self) { group in
            group.addTask { await self.wait(for: id) }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            // The first answer cancels the other; a slot granted as the deadline passed is still taken (and
            // counted), so that it can be given back.
            var admitted = false
            while let answer = await group.next() {
                if answer == true { admitted = true }
                group.cancelAll()
            }
            return admitted
        }
    }

    /// Gives the slot to the first waiter (one still on its way to the line included), or frees it.
    package func release() {
        let next = state.withLock { $0.passOn() }
        next?.continuation.resume(returning: true)
    }
}

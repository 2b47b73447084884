import Synchronization

/// At most `concurrency` requests work at once and `queue` more wait in line (first come, first served); the
/// rest are refused at once, so memory stays bounded under any load.
///
/// A request that waits for bytes (its source's download) gives its slot back meanwhile (`suspend()`), so that
/// CPU work goes on (and a source served by this same service, a nested thumbor URL, can be answered), and takes
/// one again before it decodes (`resume()`, ahead of the line). Suspended requests still count against
/// `concurrency + queue`, the bound on requests in the service: new ones are refused beyond it.
///
/// Thread safety: every method may be called from any task; the state is in a `Mutex`.
package final class AdmissionGate: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
        /// A suspended request coming back: it waits ahead of requests that never had a slot.
        var resuming = false
    }

    private struct State {
        var active = 0
        /// Requests admitted that gave their slot back while they wait for bytes.
        var suspended = 0
        var waiting: [Waiter] = []
        /// Tickets of resuming requests not yet in `waiting`.
        var resuming: Set<UInt64> = []
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
    /// Requests that gave their slot back while they wait for bytes.
    package var suspendedCount: Int { state.withLock { $0.suspended } }

    /// What `tryAcquire()` decided: a slot, a place in the line (pass the ticket to `wait(for:)`), or a refusal.
    package enum Admission: Equatable {
        case admitted, refused
        case queued(ticket: UInt64)
    }

    /// Decides at once, without suspending: one lock, no allocation unless the request joins the line. The cheap
    /// path of every refusal.
    package func tryAcquire() -> Admission {
        state.withLock { s -> Admission in
            // With no request suspended this is: a free slot admits, else the line takes up to `queue`.
            guard s.active + s.suspended + s.waiting.count + s.pending.count < self.concurrency + self.queue else {
                return .refused
            }
            if s.active < self.concurrency {
                s.active += 1
                return .admitted
            }
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
                    if s.resuming.remove(id) != nil {
                        let place = s.waiting.firstIndex { !$0.resuming } ?? s.waiting.endIndex
                        s.waiting.insert(Waiter(id: id, continuation: continuation, resuming: true), at: place)
                    } else {
                        s.waiting.append(Waiter(id: id, continuation: continuation))
                    }
                    return (nil, nil)
                }
                next?.continuation.resume(returning: true)
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = self.state.withLock { s -> Waiter? in
                guard let index = s.waiting.firstIndex(where: { $0.id == id }) else {
                    if s.pending.contains(id) { s.cancelled.insert(id) }
                    s.resuming.remove(id)
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

    /// Gives an admitted request's slot back while it waits for bytes; it stays counted as suspended until
    /// `resume()` or `endSuspension()`.
    package func suspend() {
        let next = state.withLock { s -> Waiter? in
            s.suspended += 1
            return s.passOn()
        }
        next?.continuation.resume(returning: true)
    }

    /// A suspended request that ends without taking a slot again.
    package func endSuspension() {
        state.withLock { $0.suspended -= 1 }
    }

    /// Takes a slot again for a suspended request: at once when one is free, else ahead of every request that
    /// never had one. True with a slot (pair it with `release()`), false when the task was cancelled first.
    package func resume() async -> Bool {
        let ticket = state.withLock { s -> UInt64? in
            s.suspended -= 1
            if s.active < self.concurrency {
                s.active += 1
                return nil
            }
            s.nextID += 1
            s.pending.insert(s.nextID)
            s.resuming.insert(s.nextID)
            return s.nextID
        }
        guard let ticket else { return true }
        return await wait(for: ticket)
    }
}

import Synchronization

/// At most `concurrency` requests work at once and `queue` more wait in line (first come, first served); the
/// rest are refused at once, so memory stays bounded under any load. A working request that waits for bytes (its
/// source's download, a request it joined) yields its slot and takes one again, ahead of the line, when it has CPU
/// work to do; while it waits it counts against the line's room, so `concurrency + queue` bounds the requests in
/// flight and `concurrency` the ones decoding, transforming or encoding.
///
/// Thread safety: every method may be called from any task; the state is in a `Mutex`.
package final class AdmissionGate: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var active = 0
        /// Admitted requests that gave their slot back while they wait for bytes (those resuming included).
        var yielded = 0
        var waiting: [Waiter] = []
        /// Yielded requests waiting to work again: served before `waiting`.
        var resuming: [Waiter] = []
        /// Pending tickets that are resumptions (a subset of `pending`: both lose a ticket when its waiter arrives).
        var priority: Set<UInt64> = []
        var nextID: UInt64 = 0
        /// Waiters admitted to the line whose continuation is not stored yet, those of them cancelled, and those
        /// a release handed its slot to before they got there (the slot stays counted as active for them).
        var pending: Set<UInt64> = []
        var cancelled: Set<UInt64> = []
        var granted: Set<UInt64> = []

        /// Requests admitted and not finished: working, yielded, or in line.
        var inFlight: Int { active + yielded + waiting.count + pending.count - priority.count }

        /// Gives a slot that is being let go to the first resuming request (one still on its way included), else
        /// the first waiter in line, else the oldest pending waiter not granted one yet, else frees it; returns the
        /// waiter to resume (outside the lock).
        mutating func passOn() -> Waiter? {
            if !resuming.isEmpty {
                yielded -= 1
                return resuming.removeFirst()
            }
            let candidates = pending.subtracting(granted)
            if let next = candidates.intersection(priority).min() {
                granted.insert(next)
                yielded -= 1
                return nil
            }
            if !waiting.isEmpty { return waiting.removeFirst() }
            if let next = candidates.min() {
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
    /// Called, outside the lock, each time a request's end leaves none in flight (`ServeConfiguration.whenIdle`).
    private let whenIdle: (@Sendable () -> Void)?

    package init(concurrency: Int, queue: Int, whenIdle: (@Sendable () -> Void)? = nil) {
        self.concurrency = concurrency
        self.queue = queue
        self.whenIdle = whenIdle
    }

    /// Requests working and waiting in line now (tests wait for exact counts instead of sleeping).
    package var counts: (active: Int, waiting: Int) {
        state.withLock { ($0.active, $0.waiting.count + $0.pending.count - $0.priority.count) }
    }

    /// Requests that yielded their slot and have not taken one again (those waiting to resume included).
    package var yielded: Int { state.withLock { $0.yielded } }

    /// Yielded requests waiting for a slot again.
    package var resuming: Int { state.withLock { $0.resuming.count + $0.priority.count } }

    /// What `tryAcquire()` decided: a slot, a place in the line (pass the ticket to `wait(for:)`), or a refusal.
    package enum Admission: Equatable {
        case admitted, refused
        case queued(ticket: UInt64)
    }

    /// Decides at once, without suspending: one lock, no allocation unless the request joins the line. The cheap
    /// path of every refusal.
    package func tryAcquire() -> Admission {
        state.withLock { s -> Admission in
            let room = s.inFlight < self.concurrency + self.queue
            if s.active < self.concurrency, room {
                s.active += 1
                return .admitted
            }
            guard room else { return .refused }
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
                    let resumes = s.priority.remove(id) != nil
                    let granted = s.granted.remove(id) != nil
                    if s.cancelled.remove(id) != nil {
                        guard granted else { return (false, nil) }
                        if resumes { s.yielded += 1 }  // still yielded: the slot it was handed goes on
                        return (false, s.passOn())
                    }
                    if granted { return (true, nil) }
                    if resumes {
                        s.resuming.append(Waiter(id: id, continuation: continuation))
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
                if let index = s.waiting.firstIndex(where: { $0.id == id }) { return s.waiting.remove(at: index) }
                if let index = s.resuming.firstIndex(where: { $0.id == id }) { return s.resuming.remove(at: index) }
                if s.pending.contains(id) { s.cancelled.insert(id) }
                return nil
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

    /// Gives a working request's slot back while it waits for bytes: the next request works, and this one counts
    /// against the line's room until `resume()` or `leave()`.
    package func yield() {
        let next = state.withLock { s -> Waiter? in
            s.yielded += 1
            return s.passOn()
        }
        next?.continuation.resume(returning: true)
    }

    /// Takes a slot again for a yielded request, ahead of the line: true with a slot (pair it with `release()`),
    /// false when the task was cancelled first (the request is still yielded: `leave()`).
    package func resume() async -> Bool {
        let ticket = state.withLock { s -> UInt64? in
            if s.active < self.concurrency {
                s.active += 1
                s.yielded -= 1
                return nil
            }
            s.nextID += 1
            s.pending.insert(s.nextID)
            s.priority.insert(s.nextID)
            return s.nextID
        }
        guard let ticket else { return true }
        return await wait(for: ticket)
    }

    /// Ends a yielded request that does not take a slot again.
    package func leave() {
        let idle = state.withLock { s -> Bool in
            s.yielded -= 1
            return s.inFlight == 0
        }
        if idle { whenIdle?() }
    }

    /// Gives the slot to the first waiter (one still on its way to the line included), or frees it.
    package func release() {
        let (next, idle) = state.withLock { s -> (Waiter?, Bool) in
            let next = s.passOn()
            return (next, s.inFlight == 0)
        }
        next?.continuation.resume(returning: true)
        if idle { whenIdle?() }
    }
}

import Synchronization
import WICore

/// One admitted request's hold on the admission gate: it yields its slot while it waits for bytes (its source's
/// download, or a load it joined) and takes one again, ahead of the line, before its CPU work (decode, transform,
/// encode). A request waiting for its origin, or for another request of the same server (a nested thumbor URL),
/// then holds no slot meant for CPU work; decoded images exist only under a slot.
///
/// Thread safety: every method may be called from any task; the state is in a `Mutex`. `work()` may run in the
/// pipeline's shared task while the request's own task waits for it, or after the request finished (a load others
/// still wait for): it then takes no slot.
package final class RequestSlot: Sendable {
    private enum State {
        /// The request has a slot.
        case holding
        /// The request gave its slot back and counts as yielded.
        case yielded
        /// A `work()` waits for a slot.
        case resuming
        /// The request finished: its slot (or its yielded place) is given back.
        case finished
    }

    private let gate: AdmissionGate
    private let state = Mutex(State.holding)

    /// A request the gate just admitted (it holds a slot).
    package init(admittedBy gate: AdmissionGate) {
        self.gate = gate
    }

    /// Gives the slot back while the request waits for bytes; nothing when it holds none.
    package func yield() {
        let yields = state.withLock { state -> Bool in
            guard state == .holding else { return false }
            state = .yielded
            return true
        }
        if yields { gate.yield() }
    }

    /// Takes a slot again before CPU work: at once when the request holds one (or finished), else ahead of the line.
    /// Throws `.cancelled` when the task is cancelled while it waits.
    package func work() async throws(ImageError) {
        let resumes = state.withLock { state -> Bool in
            guard state == .yielded else { return false }
            state = .resuming
            return true
        }
        guard resumes else { return }
        let admitted = await gate.resume()
        let late = state.withLock { state -> Bool in
            if state == .finished { return true }
            state = admitted ? .holding : .yielded
            return false
        }
        // Finished while it waited: the request's end left this place to be given back here.
        if late {
            if admitted { gate.release() } else { gate.leave() }
        }
        guard admitted else { throw ImageError(.cancelled, "the request was cancelled while it waited for a slot") }
    }

    /// Ends the request: gives its slot or its yielded place back (a `work()` still waiting gives it back when it
    /// returns).
    package func finish() {
        let previous = state.withLock { state -> State in
            defer { state = .finished }
            return state
        }
        switch previous {
        case .holding: gate.release()
        case .yielded: gate.leave()
        case .resuming, .finished: break
        }
    }

    /// The pipeline's hook (`ImageContext.Key.beforeWork`): `work()`.
    package var beforeWork: @Sendable () async throws(ImageError) -> Void {
        { [self] () async throws(ImageError) in try await work() }
    }
}

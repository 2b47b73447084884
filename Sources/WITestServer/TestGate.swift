import Synchronization

/// Holds a response mid-body until the test opens it (see `TestResponse.hold`): deterministic "the transfer is
/// running now" states without timing guesses.
///
/// Thread safety: `open` and `whenOpen` may be called from any thread.
public final class TestGate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [@Sendable () -> Void])>((false, []))

    public init() {}

    /// Lets every held response continue, now and later.
    public func open() {
        let waiters = state.withLock { s in
            s.open = true
            defer { s.waiters = [] }
            return s.waiters
        }
        waiters.forEach { $0() }
    }

    /// Runs `body` once the gate is open (at once if it is).
    func whenOpen(_ body: @escaping @Sendable () -> Void) {
        let now = state.withLock { s in
            if !s.open { s.waiters.append(body) }
            return s.open
        }
        if now { body() }
    }
}

import Synchronization

/// Sources whose load failed moments ago, with the answer they got: a retry of the same source within `ttl` gets
/// that answer again without a connection, a download or a decode, so a retry storm of one hostile URL (six
/// retries of one cost 29 CPU-seconds, issue 34) costs a lookup each. At most `capacity` sources are kept, the
/// oldest failure going first.
///
/// Thread safety: the table is under a `Mutex`; any task may look up and record.
package final class FailedSources<C: Clock>: Sendable where C.Duration == Duration {
    private struct Failure {
        let error: ServeError
        let expiry: C.Instant
        let sequence: UInt64
    }

    private struct State {
        var failures: [String: Failure] = [:]
        var order: [(key: String, sequence: UInt64)] = []
        var head = 0
        var sequence: UInt64 = 0
    }

    let ttl: Duration
    let capacity: Int
    private let clock: C
    private let state = Mutex(State())

    init(ttl: Duration, capacity: Int = 10_000, clock: C) {
        self.ttl = ttl
        self.capacity = max(1, capacity)
        self.clock = clock
    }

    /// Whether a load that failed with this status would fail again at once: not when the service was full, shut
    /// down or failed on its own (503, 500).
    static func isLasting(_ status: ServeError.Status) -> Bool {
        switch status {
        case .serviceUnavailable, .internalError: false
        default: true
        }
    }

    /// The failure recorded for `source` less than `ttl` ago, if any.
    func failure(for source: String) -> ServeError? {
        guard ttl > .zero else { return nil }
        let now = clock.now
        return state.withLock { state -> ServeError? in
            guard let failure = state.failures[source] else { return nil }
            guard now < failure.expiry else {
                state.failures[source] = nil
                return nil
            }
            return failure.error
        }
    }

    /// Remembers that `source` failed with `error` (unless its status says the failure was the service's).
    func record(_ error: ServeError, for source: String) {
        guard ttl > .zero, Self.isLasting(error.status) else { return }
        let expiry = clock.now.advanced(by: ttl)
        state.withLock { state in
            state.sequence += 1
            state.failures[source] = Failure(error: error, expiry: expiry, sequence: state.sequence)
            state.order.append((source, state.sequence))
            // Over capacity: drop the oldest records still current (a key recorded again has a newer sequence).
            while state.failures.count > capacity, state.head < state.order.count {
                let oldest = state.order[state.head]
                state.head += 1
                if state.failures[oldest.key]?.sequence == oldest.sequence { state.failures[oldest.key] = nil }
            }
            if state.head > 1024, state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
        }
    }

    /// Sources remembered now (expired ones included until looked up or pushed out).
    var count: Int { state.withLock { $0.failures.count } }
}

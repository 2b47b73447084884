import Synchronization

/// Runs an action once the service has stayed idle for a while: every idle moment (`ServeConfiguration.whenIdle`)
/// starts the wait again, so a steady load, which leaves the service idle for an instant between most requests,
/// never runs it, and the end of a burst runs it once.
///
/// `wi serve` gives freed memory back this way (`malloc_trim` once no request has ended for half a second). Run half
/// a second after the first idle moment instead, as it first was, it trimmed over and over under a steady load
/// (2 clients on the Service JPEGs: 147 `madvise` calls in 9.5 s, 23 now; no difference in the rate was measurable).
///
/// Thread safety: `idle()` may be called from any thread; `run()` runs in one task until that task is cancelled.
package final class IdleDebounce: Sendable {
    private let moments = Atomic<UInt64>(0)
    private let wakes: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let wait: @Sendable () async throws -> Void
    private let action: @Sendable () -> Void

    /// Runs `action` once `delay` has passed with no idle moment.
    package convenience init(after delay: Duration, action: @escaping @Sendable () -> Void) {
        self.init(wait: { try await Task.sleep(for: delay) }, action: action)
    }

    /// Runs `action` once a `wait` (a delay; it throws when cancelled) has passed with no idle moment.
    package init(wait: @escaping @Sendable () async throws -> Void, action: @escaping @Sendable () -> Void) {
        (wakes, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.wait = wait
        self.action = action
    }

    /// An idle moment: the wait starts again.
    package func idle() {
        moments.add(1, ordering: .relaxed)
        continuation.yield()
    }

    /// Waits for idle moments and runs the action after each quiet period, until cancelled.
    package func run() async {
        var done: UInt64 = 0  // the idle moments the last action came after
        for await _ in wakes {
            var seen = moments.load(ordering: .relaxed)
            if seen == done { continue }  // a wake left over from moments during the last period's waits
            while true {
                do { try await wait() } catch { return }
                let now = moments.load(ordering: .relaxed)
                if now == seen { break }
                seen = now
            }
            action()
            done = seen
        }
    }
}

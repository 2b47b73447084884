import Synchronization
import Testing
@testable import WIServeCore

/// `IdleDebounce`: the action runs once a whole wait passes with no idle moment, never while moments keep coming,
/// once per quiet period.
@Suite struct IdleDebounceTests {
    final class Counts: Sendable {
        let waits = Mutex(0)
        let actions = Mutex(0)
    }

    @Test(.timeLimit(.minutes(1))) func idleMomentsDuringTheWaitStartItAgain() async throws {
        // Each wait is handed to the test as a continuation to resume; each action is announced with its number.
        let (waits, waiting) = AsyncStream.makeStream(of: CheckedContinuation<Void, any Error>.self)
        let (actions, acted) = AsyncStream.makeStream(of: Int.self)
        let counts = Counts()
        let debounce = IdleDebounce(
            wait: {
                counts.waits.withLock { $0 += 1 }
                try await withCheckedThrowingContinuation { waiting.yield($0) }
            },
            action: {
                acted.yield(
                    counts.actions.withLock {
                        $0 += 1
                        return $0
                    })
            })
        let running = Task { await debounce.run() }
        var nextWait = waits.makeAsyncIterator()
        var nextAction = actions.makeAsyncIterator()

        debounce.idle()
        let first = try #require(await nextWait.next())
        // Two requests end while it waits (a steady load): the wait starts again and nothing runs.
        debounce.idle()
        debounce.idle()
        first.resume()
        let second = try #require(await nextWait.next())
        #expect(counts.actions.withLock { $0 } == 0)
        // A whole wait with no idle moment: the action runs.
        second.resume()
        #expect(await nextAction.next() == 1)
        // The moments of that period make no second one; the next idle moment does: one wait, one action.
        debounce.idle()
        try #require(await nextWait.next()).resume()
        #expect(await nextAction.next() == 2)

        // Cancelled: a wait in progress (there should be none) throws, and `run` returns.
        running.cancel()
        let drain = Task {
            var rest = waits.makeAsyncIterator()
            while let wait = await rest.next() { wait.resume(throwing: CancellationError()) }
        }
        await running.value
        waiting.finish()
        await drain.value
        #expect(counts.waits.withLock { $0 } == 3)
        #expect(counts.actions.withLock { $0 } == 2)
    }

    @Test(.timeLimit(.minutes(1))) func cancelledInItsWaitItReturnsWithoutTheAction() async throws {
        let (waits, waiting) = AsyncStream.makeStream(of: CheckedContinuation<Void, any Error>.self)
        let acted = Mutex(false)
        let debounce = IdleDebounce(
            wait: { try await withCheckedThrowingContinuation { waiting.yield($0) } },
            action: { acted.withLock { $0 = true } })
        let running = Task { await debounce.run() }
        debounce.idle()
        var nextWait = waits.makeAsyncIterator()
        let wait = try #require(await nextWait.next())
        running.cancel()
        wait.resume(throwing: CancellationError())
        await running.value
        #expect(acted.withLock { $0 } == false)
    }
}

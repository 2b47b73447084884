import Synchronization
import Testing
@testable import WIServe
@testable import WIServeCore

/// Concurrency and queue limits with exact counts: no timing involved.
@Suite struct AdmissionGateTests {
    /// Waits (yielding) until the gate shows `expected` (and `yielded` requests waiting for bytes, when given);
    /// bounded.
    static func wait(_ gate: AdmissionGate, for expected: (Int, Int), yielded: Int? = nil) async throws {
        for _ in 0..<100_000 {
            if gate.counts == expected, yielded == nil || gate.yielded == yielded { return }
            await Task.yield()
        }
        Issue.record("gate counts \(gate.counts), yielded \(gate.yielded), expected \(expected), \(yielded as Any)")
    }

    @Test func admitsQueuesThenRefuses() async throws {
        let gate = AdmissionGate(concurrency: 2, queue: 1)
        #expect(await gate.acquire())
        #expect(await gate.acquire())
        #expect(gate.counts == (2, 0))
        let waiter = Task { await gate.acquire() }
        try await Self.wait(gate, for: (2, 1))
        #expect(await gate.acquire() == false)  // the line is full
        gate.release()  // hands the slot to the waiter
        #expect(await waiter.value)
        #expect(gate.counts == (2, 0))
        gate.release()
        gate.release()
        #expect(gate.counts == (0, 0))
    }

    /// A release that comes after a waiter got its ticket but before it stands in line hands it the slot (it used
    /// to free the slot, and the waiter then waited for a release that might never come: whole-target test runs hung
    /// in `admitsQueuesThenRefuses` about one time in three).
    @Test func aReleaseBeforeTheWaiterArrivesHandsItTheSlot() async {
        let gate = AdmissionGate(concurrency: 1, queue: 2)
        #expect(gate.tryAcquire() == .admitted)
        guard case .queued(let first) = gate.tryAcquire(), case .queued(let second) = gate.tryAcquire() else {
            Issue.record("the line has room for two")
            return
        }
        gate.release()  // both have tickets, neither stands in line yet
        #expect(gate.counts == (1, 2))
        #expect(await gate.wait(for: first))  // the slot was kept for it: taken at once
        #expect(gate.counts == (1, 1))
        gate.release()  // handed to the second, still on its way
        // The second is cancelled before it gets there: it answers false and frees the slot it was handed.
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await gate.wait(for: second)
        }
        #expect(await cancelled.value == false)
        #expect(gate.counts == (0, 0))
        #expect(gate.tryAcquire() == .admitted)
    }

    @Test func cancelledWaiterLeavesTheLine() async throws {
        let gate = AdmissionGate(concurrency: 1, queue: 1)
        #expect(await gate.acquire())
        let waiter = Task { await gate.acquire() }
        try await Self.wait(gate, for: (1, 1))
        waiter.cancel()
        #expect(await waiter.value == false)
        #expect(gate.counts == (1, 0))
        gate.release()
        #expect(gate.counts == (0, 0))
    }

    /// A request that yields its slot (it waits for bytes) lets the next one work, counts against the line's room
    /// meanwhile, and takes a slot again ahead of the line.
    @Test func aYieldedRequestResumesAheadOfTheLine() async throws {
        let gate = AdmissionGate(concurrency: 1, queue: 2)
        #expect(gate.tryAcquire() == .admitted)  // A
        gate.yield()  // A waits for its source's bytes
        #expect(gate.counts == (0, 0) && gate.yielded == 1)
        #expect(gate.tryAcquire() == .admitted)  // B works meanwhile
        let c = Task { await gate.acquire() }  // C waits in line
        try await Self.wait(gate, for: (1, 1), yielded: 1)
        #expect(gate.tryAcquire() == .refused)  // A, B and C fill concurrency + queue
        let a = Task { await gate.resume() }  // A's bytes came
        for _ in 0..<100_000 where gate.resuming == 0 { await Task.yield() }
        #expect(gate.resuming == 1 && gate.counts == (1, 1) && gate.yielded == 1)
        gate.release()  // B is done: the slot goes to A, not to C who came first
        #expect(await a.value)
        try await Self.wait(gate, for: (1, 1), yielded: 0)
        gate.release()  // A is done: C's turn
        #expect(await c.value)
        #expect(gate.counts == (1, 0))
        gate.release()
        #expect(gate.counts == (0, 0) && gate.yielded == 0)
    }

    /// A yielded request cancelled while it waits to resume stays yielded until it leaves; a free slot is taken at
    /// once.
    @Test func aCancelledResumptionLeaves() async throws {
        let gate = AdmissionGate(concurrency: 1, queue: 1)
        #expect(await gate.acquire())
        gate.yield()
        #expect(await gate.acquire())  // another works
        let resumption = Task { await gate.resume() }
        for _ in 0..<100_000 where gate.resuming == 0 { await Task.yield() }
        #expect(gate.resuming == 1 && gate.counts == (1, 0) && gate.yielded == 1)
        resumption.cancel()
        #expect(await resumption.value == false)
        #expect(gate.yielded == 1)
        gate.leave()
        gate.release()
        #expect(gate.counts == (0, 0) && gate.yielded == 0)
        #expect(await gate.acquire())
        gate.yield()
        #expect(await gate.resume())  // the slot is free: taken at once
        #expect(gate.counts == (1, 0) && gate.yielded == 0)
        gate.release()
    }

    /// `whenIdle` (wi serve gives freed memory back there) runs once each time the last request in flight ends, by a
    /// release or by a yielded request's leave; never while another works, yields or waits in line.
    @Test func whenIdleRunsOnceTheLastRequestEnds() async throws {
        final class Calls: Sendable { let count = Mutex(0) }
        let calls = Calls()
        let gate = AdmissionGate(concurrency: 1, queue: 1, whenIdle: { calls.count.withLock { $0 += 1 } })
        #expect(await gate.acquire())  // A
        let b = Task { await gate.acquire() }  // B waits in line
        try await Self.wait(gate, for: (1, 1))
        gate.release()  // A is done: the slot goes to B
        #expect(await b.value)
        #expect(calls.count.withLock { $0 } == 0)
        gate.release()  // B is done: none left
        #expect(calls.count.withLock { $0 } == 1)
        #expect(await gate.acquire())  // C
        gate.yield()  // C waits for bytes
        #expect(await gate.acquire())  // D works meanwhile
        gate.release()  // D is done, C still yielded
        #expect(calls.count.withLock { $0 } == 1)
        gate.leave()  // C ends without working again
        #expect(calls.count.withLock { $0 } == 2 && gate.counts == (0, 0) && gate.yielded == 0)
    }

    @Test func zeroQueueRefusesAtOnce() async {
        let gate = AdmissionGate(concurrency: 1, queue: 0)
        #expect(await gate.acquire())
        #expect(await gate.acquire() == false)
        gate.release()
        #expect(await gate.acquire())
        gate.release()
    }
}

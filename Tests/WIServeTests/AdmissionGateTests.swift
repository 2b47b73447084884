import Synchronization
import Testing
@testable import WIServe
@testable import WIServeCore

/// Concurrency and queue limits with exact counts: no timing involved.
@Suite struct AdmissionGateTests {
    /// Waits (yielding) until the gate shows `expected`; bounded.
    static func wait(_ gate: AdmissionGate, for expected: (Int, Int)) async throws {
        for _ in 0..<100_000 {
            if gate.counts == expected { return }
            await Task.yield()
        }
        Issue.record("gate counts \(gate.counts), expected \(expected)")
    }

    /// Waits (yielding) until the gate shows `expected` and `suspended` requests waiting for bytes; bounded.
    static func wait(_ gate: AdmissionGate, for expected: (Int, Int), suspended: Int) async throws {
        for _ in 0..<100_000 {
            if gate.counts == expected && gate.suspendedCount == suspended { return }
            await Task.yield()
        }
        Issue.record(
            "gate counts \(gate.counts) and \(gate.suspendedCount) suspended, expected \(expected) and \(suspended)")
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

    @Test func zeroQueueRefusesAtOnce() async {
        let gate = AdmissionGate(concurrency: 1, queue: 0)
        #expect(await gate.acquire())
        #expect(await gate.acquire() == false)
        gate.release()
        #expect(await gate.acquire())
        gate.release()
    }

    /// A request waiting for bytes gives its slot to the line, and comes back ahead of requests that never had one.
    @Test func aSuspendedRequestsSlotGoesToTheLineAndItComesBackFirst() async throws {
        let gate = AdmissionGate(concurrency: 1, queue: 3)
        #expect(gate.tryAcquire() == .admitted)  // A
        let b = Task { await gate.acquire() }
        try await Self.wait(gate, for: (1, 1))
        gate.suspend()  // A waits for bytes: B works
        #expect(await b.value)
        #expect(gate.counts == (1, 0))
        #expect(gate.suspendedCount == 1)
        let order = Order()
        let c = Task {
            let admitted = await gate.acquire()
            order.append("C")
            return admitted
        }
        try await Self.wait(gate, for: (1, 1))
        let a = Task {
            let resumed = await gate.resume()  // A's bytes came: it lines up ahead of C
            order.append("A")
            return resumed
        }
        try await Self.wait(gate, for: (1, 2))
        #expect(gate.suspendedCount == 0)
        gate.release()  // B done: A, not C
        #expect(await a.value)
        #expect(order.all == ["A"])
        gate.release()  // A done: C
        #expect(await c.value)
        #expect(order.all == ["A", "C"])
        gate.release()
        #expect(gate.counts == (0, 0))
    }

    /// Suspended requests count against concurrency + queue: the service holds at most that many requests.
    @Test func suspendedRequestsCountAgainstTheBound() async throws {
        let gate = AdmissionGate(concurrency: 1, queue: 1)
        #expect(gate.tryAcquire() == .admitted)
        gate.suspend()
        #expect(gate.tryAcquire() == .admitted)  // the free slot
        #expect(gate.tryAcquire() == .refused)  // 1 working + 1 suspended = 2
        gate.endSuspension()  // the suspended one failed and left
        guard case .queued(let ticket) = gate.tryAcquire() else {
            Issue.record("the line has room again")
            return
        }
        gate.release()
        #expect(await gate.wait(for: ticket))
        gate.release()
        #expect(gate.counts == (0, 0))
        #expect(gate.suspendedCount == 0)
    }

    /// A slot ends in every state without leaking or double-freeing: held, suspended, and ended while it waits to
    /// come back (the slot granted afterwards is given back).
    @Test func aGateSlotEndsCleanlyInEveryState() async throws {
        let gate = AdmissionGate(concurrency: 1, queue: 2)
        #expect(gate.tryAcquire() == .admitted)
        let held = GateSlot(admittedBy: gate)
        held.finish()
        held.finish()
        #expect(gate.counts == (0, 0))

        #expect(gate.tryAcquire() == .admitted)
        let suspended = GateSlot(admittedBy: gate)
        suspended.suspend()
        #expect(gate.counts == (0, 0) && gate.suspendedCount == 1)
        suspended.finish()
        #expect(gate.suspendedCount == 0)
        #expect(await suspended.resume())  // ended: nothing to take

        #expect(gate.tryAcquire() == .admitted)
        let resuming = GateSlot(admittedBy: gate)
        resuming.suspend()
        #expect(gate.tryAcquire() == .admitted)  // another request works
        let back = Task { await resuming.resume() }
        try await Self.wait(gate, for: (1, 1))
        resuming.finish()  // the request ended while its slot was on its way
        gate.release()  // the other is done: the slot goes to `resuming`...
        #expect(await back.value)
        #expect(gate.counts == (0, 0))  // ...which gave it back
        #expect(gate.suspendedCount == 0)
    }
}

/// Names in the order they were appended, from any task.
final class Order: Sendable {
    private let names = Mutex<[String]>([])
    func append(_ name: String) { names.withLock { $0.append(name) } }
    var all: [String] { names.withLock { $0 } }
}

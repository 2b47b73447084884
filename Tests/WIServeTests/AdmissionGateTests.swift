import Testing
@testable import WIServe

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
}

import Synchronization
import Testing
import WICore
@testable import WIServeCore

/// `RequestSlot` over a real gate, exact counts, no timing: yielding, taking a slot again, finishing in every state,
/// and many requests cycling through it at once (also under ThreadSanitizer: `make sanitize`).
@Suite struct RequestSlotTests {
    @Test func aYieldedSlotIsTakenAgainForWorkAndGivenBackOnce() async throws {
        let gate = AdmissionGate(concurrency: 1, queue: 2)
        #expect(gate.tryAcquire() == .admitted)
        let slot = RequestSlot(admittedBy: gate)
        slot.yield()
        slot.yield()  // nothing more: it holds none
        #expect(gate.counts == (0, 0) && gate.yielded == 1)
        #expect(gate.tryAcquire() == .admitted)  // another request works meanwhile
        let work = Task { try await slot.work() }
        for _ in 0..<100_000 where gate.resuming == 0 { await Task.yield() }
        #expect(gate.resuming == 1)
        gate.release()  // the other is done: the slot goes to the waiting work
        try await work.value
        #expect(gate.counts == (1, 0) && gate.yielded == 0)
        try await slot.work()  // holds one already: at once
        slot.finish()
        slot.finish()  // once only
        #expect(gate.counts == (0, 0) && gate.yielded == 0)
    }

    @Test func finishingAYieldedRequestLeavesItsPlace() {
        let gate = AdmissionGate(concurrency: 1, queue: 1)
        #expect(gate.tryAcquire() == .admitted)
        let slot = RequestSlot(admittedBy: gate)
        slot.yield()
        slot.finish()
        #expect(gate.counts == (0, 0) && gate.yielded == 0)
        #expect(gate.tryAcquire() == .admitted)
        gate.release()
    }

    /// The request ends (its deadline) while the pipeline's shared task waits for a slot for it: the slot the work
    /// then gets is given back at once, and work after the end takes none.
    @Test func workThatOutlivesItsRequestGivesTheSlotBack() async throws {
        let gate = AdmissionGate(concurrency: 1, queue: 2)
        #expect(gate.tryAcquire() == .admitted)
        let slot = RequestSlot(admittedBy: gate)
        slot.yield()
        #expect(gate.tryAcquire() == .admitted)  // the slot is busy elsewhere
        let work = Task { try await slot.work() }
        for _ in 0..<100_000 where gate.resuming == 0 { await Task.yield() }
        slot.finish()  // the request answered 504; its work still waits
        gate.release()
        try await work.value
        #expect(gate.counts == (0, 0) && gate.yielded == 0)
        try await slot.work()  // after the end: no slot taken
        #expect(gate.counts == (0, 0))
    }

    @Test func aCancelledWaitThrowsAndTheRequestStaysYielded() async throws {
        let gate = AdmissionGate(concurrency: 1, queue: 2)
        #expect(gate.tryAcquire() == .admitted)
        let slot = RequestSlot(admittedBy: gate)
        slot.yield()
        #expect(gate.tryAcquire() == .admitted)
        let work = Task { try await slot.work() }
        for _ in 0..<100_000 where gate.resuming == 0 { await Task.yield() }
        work.cancel()
        await #expect(throws: ImageError.self) { try await work.value }
        #expect(gate.yielded == 1)
        slot.finish()
        gate.release()
        #expect(gate.counts == (0, 0) && gate.yielded == 0)
    }

    /// 16 tasks, 200 requests each, through a gate of 2 slots and a line of 64: admit, yield, work, finish. At the
    /// end nothing is held, waiting or yielded, and never more than 2 worked at once.
    @Test func manyRequestsCycleThroughAndLeaveNothingBehind() async {
        let gate = AdmissionGate(concurrency: 2, queue: 64)
        let working = Occupancy()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    for _ in 0..<200 {
                        guard await gate.acquire() else { continue }
                        let slot = RequestSlot(admittedBy: gate)
                        slot.yield()
                        await Task.yield()
                        guard (try? await slot.work()) != nil else {
                            slot.finish()
                            continue
                        }
                        working.enter()
                        await Task.yield()
                        working.leave()
                        slot.finish()
                    }
                }
            }
        }
        #expect(gate.counts == (0, 0) && gate.yielded == 0 && gate.resuming == 0)
        #expect(working.peak <= 2 && working.total == 16 * 200)
    }
}

/// How many are inside at once (and at most), and how many entered.
final class Occupancy: Sendable {
    private let state = Mutex((inside: 0, peak: 0, total: 0))
    func enter() {
        state.withLock {
            $0.inside += 1
            $0.total += 1
            $0.peak = max($0.peak, $0.inside)
        }
    }
    func leave() { state.withLock { $0.inside -= 1 } }
    var peak: Int { state.withLock { $0.peak } }
    var total: Int { state.withLock { $0.total } }
}

import Dispatch
import Synchronization
import Testing
import WICore

/// A request's CPU work stops with the request: a cancelled pool job that has not started never starts, one that
/// runs sees its cancellation at its next check, and a caller that asks for it returns only once the shared work
/// it was the last to wait for has ended.
@Suite struct WorkCancellationTests {
    /// Waits (yielding, not sleeping a fixed time) until `condition` holds.
    static func wait(until condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test func aQueuedJobCancelledBeforeItsTurnNeverStarts() async throws {
        let pool = WorkerPool(name: "test.cancel", threads: 1)
        defer { pool.shutdown() }
        let hold = DispatchSemaphore(value: 0)
        let blockerStarted = Atomic<Bool>(false)
        pool.execute {
            blockerStarted.store(true, ordering: .relaxed)
            hold.wait()
        }
        await Self.wait { blockerStarted.load(ordering: .relaxed) }
        let ran = Atomic<Int>(0)
        let queued = Task { () throws(ImageError) -> Int in
            try await pool.runCancellable { () throws(ImageError) -> Int in
                ran.add(1, ordering: .relaxed)
                return 7
            }
        }
        await Self.wait { pool.pendingCount == 1 }
        queued.cancel()
        // The caller has its answer while the only thread is still busy: it did not wait for the job's turn.
        let result = await queued.result
        guard case .failure(let error) = result else {
            Issue.record("the queued job was not cancelled")
            return
        }
        #expect((error as? ImageError)?.code == .cancelled)
        hold.signal()
        // The queue drains; the cancelled job is skipped.
        await pool.run {}
        let runs = ran.load(ordering: .relaxed)
        #expect(runs == 0)
        #expect(try await pool.runCancellable { () throws(ImageError) -> Int in 3 } == 3)
    }

    @Test func aRunningJobSeesItsCancellationAtItsNextCheck() async throws {
        let pool = WorkerPool(name: "test.cancel", threads: 1)
        defer { pool.shutdown() }
        let started = Atomic<Bool>(false)
        let rounds = Atomic<Int>(0)
        let exited = Atomic<Bool>(false)
        let job = Task { () throws(ImageError) -> Int in
            try await pool.runCancellable { () throws(ImageError) -> Int in
                defer { exited.store(true, ordering: .relaxed) }
                started.store(true, ordering: .relaxed)
                while true {
                    try WorkerPool.checkCancellation()
                    rounds.add(1, ordering: .relaxed)
                }
            }
        }
        await Self.wait { started.load(ordering: .relaxed) }
        job.cancel()
        let result = await job.result
        guard case .failure(let error) = result else {
            Issue.record("the job did not stop")
            return
        }
        #expect((error as? ImageError)?.code == .cancelled)
        // The answer comes after the body returned: nothing of the job runs on.
        let hasExited = exited.load(ordering: .relaxed)
        let roundCount = rounds.load(ordering: .relaxed)
        #expect(hasExited)
        #expect(roundCount > 0)
        #expect(pool.runningCancellableJobs == 0)
    }

    @Test func checksOutsideACancellableJobDoNothing() async throws {
        #expect(!WorkerPool.isCancelled)
        try WorkerPool.checkCancellation()
        let pool = WorkerPool(name: "test.cancel", threads: 1)
        defer { pool.shutdown() }
        // A plain `run` in a cancelled task runs, and its checks pass.
        let plain = Task { await pool.run { () -> Bool in WorkerPool.isCancelled } }
        plain.cancel()
        #expect(await plain.value == false)
        // A job that was cancelled leaves no trace on the thread for the next one.
        let cancelled = Task { () throws(ImageError) -> Int in
            try await pool.runCancellable { () throws(ImageError) -> Int in
                while !WorkerPool.isCancelled {}
                return 1
            }
        }
        await Self.wait { pool.pendingCount == 0 }
        cancelled.cancel()
        _ = await cancelled.result
        #expect(try await pool.runCancellable { () throws(ImageError) -> Bool in WorkerPool.isCancelled } == false)
    }

    @Test func aCancelledCallerThatAsksWaitsForTheWorkToEnd() async throws {
        let registry = WorkRegistry<String, Int, Never>()
        let started = Atomic<Bool>(false)
        let ended = Atomic<Bool>(false)
        let caller = Task {
            await CancelledWork.$isAwaited.withValue(true) {
                await registry.run(key: "k", priority: .normal) { _ in
                    started.store(true, ordering: .relaxed)
                    // Work that takes a while to notice and to wind down after its cancellation.
                    while !Task.isCancelled { await Task.yield() }
                    for _ in 0..<1_000 { await Task.yield() }
                    ended.store(true, ordering: .relaxed)
                    return .success(1)
                }
            }
        }
        await Self.wait { started.load(ordering: .relaxed) }
        caller.cancel()
        let result = await caller.value
        guard case .failure(let error) = result else {
            Issue.record("expected a cancellation")
            return
        }
        #expect(error.code == .cancelled)
        let hasEnded = ended.load(ordering: .relaxed)
        #expect(hasEnded)
    }

    @Test func aCallerThatDoesNotAskLeavesAtOnce() async throws {
        let registry = WorkRegistry<String, Int, Never>()
        let started = Atomic<Bool>(false)
        let release = Atomic<Bool>(false)
        let ended = Atomic<Bool>(false)
        let caller = Task {
            await registry.run(key: "k", priority: .normal) { _ in
                started.store(true, ordering: .relaxed)
                // Ignores its cancellation until the test lets it go.
                while !release.load(ordering: .relaxed) { await Task.yield() }
                ended.store(true, ordering: .relaxed)
                return .success(1)
            }
        }
        await Self.wait { started.load(ordering: .relaxed) }
        caller.cancel()
        let result = await caller.value
        #expect((try? result.get()) == nil)
        let hasEnded = ended.load(ordering: .relaxed)
        #expect(!hasEnded)
        release.store(true, ordering: .relaxed)
        await Self.wait { ended.load(ordering: .relaxed) }
    }
}

import Synchronization
import WICore

/// Runs work in a cancellable pool job that is cancelled while it runs: the job starts, waits until it sees its
/// cancellation, then calls the work, so a loop that checks `WorkerPool.checkCancellation()` must stop at its first
/// check. For tests of where CPU work stops.
public enum CancelledJob {
    /// The error `body` ended with in such a job, or nil when it returned normally.
    public static func error<T: Sendable>(on pool: WorkerPool, _ body: @escaping @Sendable () throws(ImageError) -> T)
        async
        -> ImageError?
    {
        let started = Atomic<Bool>(false)
        let job = Task { () throws(ImageError) -> T in
            try await pool.runCancellable { () throws(ImageError) -> T in
                started.store(true, ordering: .relaxed)
                while !WorkerPool.isCancelled {}  // the cancellation comes while the job runs
                return try body()
            }
        }
        while !started.load(ordering: .relaxed) { await Task.yield() }
        job.cancel()
        guard case .failure(let error) = await job.result else { return nil }
        return error as? ImageError
    }
}

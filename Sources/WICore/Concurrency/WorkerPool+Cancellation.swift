#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The stop signal of one cancellable pool job: set when the task that awaits the job is cancelled.
///
/// Thread safety: an atomic flag; set from any thread, read by the job's thread.
final class PoolJobCancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    var isCancelled: Bool { flag.load(ordering: .relaxed) }
    func cancel() { flag.store(true, ordering: .relaxed) }
}

/// One cancellable job's hand-over: its awaiting continuation is resumed exactly once, by the job when it has run
/// (with its result), or by a cancellation that comes before it starts (with `.cancelled`, at once: the job is
/// then skipped when its turn comes). The outcome itself passes under the lock, so the awaiting task reads it
/// after the thread that wrote it has let go (ThreadSanitizer sees that order too, whatever path the runtime
/// takes to resume the task).
///
/// Thread safety: the continuation and the outcome are under a `Mutex`.
private final class PoolJob<T: Sendable>: Sendable {
    typealias Continuation = CheckedContinuation<Void, Never>
    private struct State {
        var continuation: Continuation?
        var started = false
        var outcome: Result<T, ImageError>?
    }

    let cancellation = PoolJobCancellation()
    private let state = Mutex(State())

    /// Keeps `continuation` until the job ends; false (nothing kept) when the job was cancelled already.
    func wait(_ continuation: Continuation) -> Bool {
        state.withLock { state in
            guard !cancellation.isCancelled else {
                state.outcome = .failure(WorkerPool.cancelledError)
                return false
            }
            state.continuation = continuation
            return true
        }
    }

    /// Marks the job started; false when a cancellation came first (the job must not run).
    func start() -> Bool {
        state.withLock { state in
            guard state.continuation != nil else { return false }
            state.started = true
            return true
        }
    }

    /// Hands `outcome` over and wakes the caller.
    func finish(_ outcome: Result<T, ImageError>) {
        let continuation = state.withLock { state -> Continuation? in
            state.outcome = outcome
            return state.continuation.take()
        }
        continuation?.resume()
    }

    func cancel() {
        let continuation = state.withLock { state -> Continuation? in
            cancellation.cancel()
            guard !state.started, let continuation = state.continuation.take() else { return nil }
            state.outcome = .failure(WorkerPool.cancelledError)
            return continuation
        }
        continuation?.resume()
    }

    /// The outcome, once the continuation was resumed.
    var outcome: Result<T, ImageError> {
        state.withLock { $0.outcome } ?? .failure(WorkerPool.cancelledError)
    }
}

/// The pool thread's current cancellable job (a per-thread slot, set only around such a job). Nil when the
/// process has no thread-specific key left (PTHREAD_KEYS_MAX): queued jobs are still skipped when cancelled, but a
/// running job cannot see its cancellation.
private let currentJobKey: pthread_key_t? = {
    var key = pthread_key_t()
    return pthread_key_create(&key, nil) == 0 ? key : nil
}()

extension WorkerPool {
    /// Runs `body` on a pool thread unless the awaiting task is cancelled first; throws `.cancelled` then, at once,
    /// and `body` never starts. A cancellation that comes while `body` runs is seen by `WorkerPool.checkCancellation()`
    /// inside it (coders and transformers call it between rows, bands or frames), so a request's CPU work stops
    /// within one unit of work of its cancellation.
    ///
    /// ```swift
    /// let image = try await pool.runCancellable { () throws(ImageError) in try transformer.transform(input) }
    /// ```
    ///
    /// Thread safety: as `run`; any number of jobs at once.
    public func runCancellable<T: Sendable>(_ body: @escaping @Sendable () throws(ImageError) -> T)
        async throws(ImageError) -> T
    {
        try await cancellableResult(body).get()
    }

    /// `runCancellable`, its outcome as a value.
    package func cancellableResult<T: Sendable>(_ body: @escaping @Sendable () throws(ImageError) -> T) async
        -> Result<T, ImageError>
    {
        let job = PoolJob<T>()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: PoolJob<T>.Continuation) in
                guard job.wait(continuation) else { return continuation.resume() }
                execute {
                    guard job.start() else { return }  // cancelled while queued: never runs
                    self.cancellableJobs.add(1, ordering: .relaxed)
                    let previous = currentJobKey.flatMap(pthread_getspecific)
                    if let key = currentJobKey {
                        pthread_setspecific(key, Unmanaged.passUnretained(job.cancellation).toOpaque())
                    }
                    let result = Result(catching: body)
                    if let key = currentJobKey { pthread_setspecific(key, previous) }
                    // Counted out before the caller hears of it: whoever has the answer sees the job gone.
                    self.cancellableJobs.subtract(1, ordering: .relaxed)
                    job.finish(result)
                }
            }
        } onCancel: {
            job.cancel()
        }
        return job.outcome
    }

    /// Cancellable jobs running now (tests check that a request's work has stopped when its answer comes).
    package var runningCancellableJobs: Int { cancellableJobs.load(ordering: .relaxed) }

    /// Whether the cancellable job running on this thread was cancelled (false outside such a job): for loops that
    /// clean up before they stop.
    ///
    /// Thread safety: reads the calling thread's job; a few nanoseconds, cheap enough for every row.
    public static var isCancelled: Bool {
        guard let key = currentJobKey, let job = pthread_getspecific(key) else { return false }
        return Unmanaged<PoolJobCancellation>.fromOpaque(job).takeUnretainedValue().isCancelled
    }

    /// Throws `.cancelled` when the cancellable job running on this thread was cancelled; does nothing outside
    /// such a job (on the caller's own thread, in a plain `run`). Call it between units of about a millisecond of
    /// work (a row, a band, a frame) in anything that can run long.
    ///
    /// Thread safety: as `isCancelled`.
    public static func checkCancellation() throws(ImageError) {
        if isCancelled { throw cancelledError }
    }

    static let cancelledError = ImageError(.cancelled, "the request was cancelled while its work ran")
}

/// Whether a cancelled caller of the manager's shared work waits for that work to stop before it returns.
///
/// A service that bounds its concurrent work (an admission gate) sets it around a load, so that a request that
/// timed out gives its slot back only once its decode, transform and download have really stopped: `wi serve`.
/// Only the last caller of a piece of work waits (others leave it running for the rest); work started inside
/// inherits the setting.
package enum CancelledWork {
    @TaskLocal package static var isAwaited = false
}

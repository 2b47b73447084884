#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// A fixed set of threads that run blocking or CPU-heavy jobs off Swift's cooperative thread pool.
///
/// Every component that blocks or computes owns its pool (the manager one for decoding and transforms, a
/// `TieredImageCache` one for I/O) or is given one; nothing is process-wide. The threads start with the first job
/// and end at `shutdown()`, which the owner calls from its own shutdown.
///
/// ```swift
/// let pool = WorkerPool(name: "wi.io", threads: 4)
/// let bytes = await pool.run { diskCache.data(forKey: key) }
/// pool.shutdown()
/// ```
///
/// Thread safety: `run`, `execute` and `shutdown` may be called from any thread. Jobs start in FIFO order.
// @unchecked Sendable: `jobs`, `head`, `threads` and `isShutDown` are only read or written while `condition` is locked.
public final class WorkerPool: @unchecked Sendable {
    private let condition = ConditionLock()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var threads: [JoinableThread] = []
    private var isShutDown = false
    private let name: String
    /// Jobs of `runCancellable` running now.
    let cancellableJobs = Atomic<Int>(0)
    /// Stands in for a job that was taken, so that the queue holds nothing a finished job captured.
    private static let finished: @Sendable () -> Void = {}
    /// The number of threads.
    public let threadCount: Int

    /// A pool of `threads` threads named `name`, started with the first job (at least one).
    public init(name: String, threads: Int) {
        self.name = name
        threadCount = min(max(1, threads), 256)
    }

    /// A pool with one thread per active core, for CPU work.
    public static func cpu(name: String = "wi.cpu") -> WorkerPool {
        WorkerPool(name: name, threads: ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Queues `job` to run on one of the pool's threads; after `shutdown()` it runs at once on the calling thread
    /// (so that no waiter is left hanging).
    public func execute(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        if isShutDown {
            condition.unlock()
            return job()
        }
        if threads.isEmpty {
            startThreads()
            if threads.isEmpty {  // the system refused every thread: run here rather than never
                condition.unlock()
                return job()
            }
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` on a pool thread and returns its result to the awaiting task.
    public func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            execute { continuation.resume(returning: body()) }
        }
    }

    /// Runs a throwing `body` on a pool thread.
    public func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await run { () -> Result<T, E> in
            Result(catching: body)
        }
        return try result.get()
    }

    /// Jobs queued and not yet started.
    public var pendingCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return jobs.count - head
    }

    /// Runs the jobs already queued, then ends every thread and waits for them (blocking the caller). Later jobs
    /// run on the thread that submits them. Idempotent; a pool thread that calls it does not wait for itself.
    public func shutdown() {
        condition.lock()
        isShutDown = true
        let running = threads
        threads = []
        condition.broadcast()
        condition.unlock()
        for thread in running where !thread.isCurrent { thread.join() }
    }

    /// Whether `shutdown()` was called.
    public var isShuttingDown: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isShutDown
    }

    /// Starts the threads; `condition` is locked.
    private func startThreads() {
        for index in 0..<threadCount {
            guard let thread = JoinableThread(name: "\(name).\(index)", { [self] in work() }) else { break }
            threads.append(thread)
        }
    }

    private func work() {
        while true {
            condition.lock()
            while head == jobs.count && !isShutDown { condition.wait() }
            if head == jobs.count {  // shut down and drained
                condition.unlock()
                return
            }
            let job = jobs[head]
            jobs[head] = Self.finished  // release what the job captured now, not at the next compaction
            head += 1
            if head > 1024 && head * 2 > jobs.count {  // compact now and then: O(1) amortized
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job()
        }
    }
}

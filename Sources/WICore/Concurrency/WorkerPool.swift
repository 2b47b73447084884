import Foundation

/// A fixed set of threads that run blocking or CPU-heavy jobs off Swift's cooperative thread pool.
///
/// `WorkerPool.io` runs blocking file and network calls (data caches); `WorkerPool.cpu` runs decoding and
/// transforms, one thread per core, so heavy work never starves the tasks that drive loads.
///
/// ```swift
/// let bytes = await WorkerPool.io.run { diskCache.data(forKey: key) }
/// ```
///
/// Thread safety: `run` and `execute` may be called from any thread. Jobs start in FIFO order.
// @unchecked Sendable: `jobs` is only read or written while `condition` is locked; the threads are never touched
// after start.
public final class WorkerPool: @unchecked Sendable {
    /// For blocking I/O: 4 threads.
    public static let io = WorkerPool(name: "wi.io", threads: 4)
    /// For CPU work (decode, transform): one thread per active core.
    public static let cpu = WorkerPool(name: "wi.cpu", threads: ProcessInfo.processInfo.activeProcessorCount)

    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    /// Stands in for a job that was taken, so that the queue holds nothing a finished job captured.
    private static let finished: @Sendable () -> Void = {}
    /// The number of threads.
    public let threadCount: Int

    /// Starts `threads` threads named `name`; they live as long as the process (make pools once, keep them).
    public init(name: String, threads: Int) {
        threadCount = max(1, threads)
        for index in 0..<threadCount {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "\(name).\(index)"
            thread.start()
        }
    }

    /// Queues `job` to run on one of the pool's threads.
    public func execute(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
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

    private func work() {
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            jobs[head] = Self.finished   // release what the job captured now, not at the next compaction
            head += 1
            if head > 1024 && head * 2 > jobs.count {   // compact now and then: O(1) amortized
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job()
        }
    }
}

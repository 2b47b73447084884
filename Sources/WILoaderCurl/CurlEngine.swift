import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WICore

/// Drives libcurl's multi handle on one owned thread: every easy handle is created, run and freed there; other
/// threads only queue commands and wake it.
///
/// Thread safety: `send`, `maxConcurrentTransfers` and `statistics` may be used from any thread; everything
/// else runs on the loader's thread.
// @unchecked Sendable: `inbox`, `limit` and `counters` are Mutexes; every other stored property is touched only by
// the loader's thread (the run loop and the libcurl callbacks it drives), `sharedHeaderList` too; `configuration`,
// `headers`, `workers` and `allowedProtocols` are set in init and never change.
final class CurlEngine: @unchecked Sendable {
    enum Command {
        case start(CurlLoadOperation)
        case cancel(CurlLoadOperation)
        case reprioritize(CurlLoadOperation)
        case wake
        /// Runs its closure once every command sent before it was handled and the queue was started from.
        case barrier(@Sendable () -> Void)
        case shutdown
    }

    let configuration: CurlImageLoader.Configuration
    /// Commands for the loader's thread; `closed` once it stopped taking them (commands sent later are answered
    /// at once: a start fails with 1010).
    private let inbox = Mutex<(commands: [Command], closed: Bool)>(([], false))
    /// Runs decryptors and response validation (the loader's pool, which also runs file: and data: loads).
    let workers: WorkerPool
    private var thread: JoinableThread?  // set in init, before any other thread can read it
    private let shutdownOnce = AsyncOnce()
    private let limit: Mutex<Int>
    private let counters = Mutex(CurlImageLoader.Statistics())
    let multi: CurlMulti
    /// The headers every request sends (the loader's).
    let headers: LoaderHeaders
    /// `headers.all` as a libcurl list, shared by every transfer that adds none (no validators, custom headers,
    /// modifier changes or range); made by the first transfer. Loader thread only.
    private var sharedHeaderList: CurlHeaderList?
    /// The protocols libcurl may use and follow redirects to: the allowed ones of http and https.
    let allowedProtocols: StaticString

    // Loader thread only.
    var transfers: [ImageLoading.Identity: Transfer] = [:]
    var transferOf: [ObjectIdentifier: Transfer] = [:]
    /// Per priority, queued transfers in handover order (`Transfer.order`); FIFO takes from `queueHeads`, LIFO
    /// from the end.
    private var queues: [[Transfer]] = [[], [], []]
    private var queueHeads = [0, 0, 0]
    /// Numbers transfers whose requests carry no handover order, in order of arrival.
    private var arrivals: UInt64 = 0
    var activeCount = 0
    /// Barriers handled in this turn of the loop, run once the queue was started from.
    private var barriers: [@Sendable () -> Void] = []
    var retryQueue: [(at: Double, transfer: Transfer)] = []
    /// Reset-ready easy handles of clean HTTP/1.x transfers (see `keepSpare`).
    var spareEasyHandles: [CurlEasy] = []
    var resumeStore: ResumeStore
    private var running = true

    /// Loads libcurl if no loader did yet, makes the multi handle and starts the loader's thread; `limit` is the
    /// number of transfers at once (the loader's `maxConcurrentTransfers`).
    init(configuration: CurlImageLoader.Configuration, headers: LoaderHeaders, workers: WorkerPool, limit: Int)
        throws(ImageError)
    {
        multi = try CurlMulti()
        self.configuration = configuration
        self.headers = headers
        self.workers = workers
        self.limit = Mutex(max(1, limit))
        resumeStore = ResumeStore(budget: configuration.resumeDataBudget)
        switch (configuration.allowedSchemes.contains("http"), configuration.allowedSchemes.contains("https")) {
        case (true, true): allowedProtocols = "http,https"
        case (true, false): allowedProtocols = "http"
        case (false, true): allowedProtocols = "https"
        case (false, false): allowedProtocols = ""  // begin() refuses every transfer before libcurl sees this
        }
        thread = JoinableThread(name: "wi.curl") { [self] in run() }
        if thread == nil { stopAll() }  // no thread to be had: every load fails at once
    }

    /// The headers every request sends, by name.
    var baseHeaders: [String: String] { headers.all }

    /// `baseHeaders` as a libcurl list, made on first use. Loader thread only.
    var baseHeaderList: CurlHeaderList {
        if let sharedHeaderList { return sharedHeaderList }
        let list = CurlHeaderList(headers.all)
        sharedHeaderList = list
        return list
    }

    /// Queues `command` for the loader's thread and wakes it. Only the command that finds the inbox empty wakes
    /// it: the loader takes the whole inbox after that wakeup, so later commands ride along (a prefetch of
    /// thousands of URLs costs one wakeup, not one system call each).
    func send(_ command: Command) {
        let accepted = inbox.withLock { inbox -> Bool? in
            guard !inbox.closed else { return nil }
            defer { inbox.commands.append(command) }
            return inbox.commands.isEmpty
        }
        guard let wasEmpty = accepted else {
            if case .start(let operation) = command { operation.finish(.failure(Self.shutDownError)) }
            if case .barrier(let reached) = command { reached() }
            return
        }
        if wasEmpty { multi.wakeup() }
    }

    /// Whether the loader's thread stopped, or was told to.
    var isShutDown: Bool { inbox.withLock { $0.closed } || shutdownOnce.hasStarted }

    /// Stops the loader's thread (every caller gets 2002) and waits for it.
    func shutdown() async {
        await shutdownOnce.run { [self] in
            send(.shutdown)
            // The join blocks for as long as the thread takes to cancel its transfers (no I/O waits: a poll
            // returns on the wakeup).
            thread?.join()
        }
    }

    /// Traps in debug builds when the caller is not the loader's thread (code that touches libcurl handles or the
    /// transfer table must run there).
    func assertOnLoaderThread(file: StaticString = #fileID, line: UInt = #line) {
        assert(isLoaderThread, "loader-thread-only code ran on another thread", file: file, line: line)
    }

    /// Whether the caller is the loader's thread (or the loader never got a thread, and the caller is its init).
    private var isLoaderThread: Bool {
        guard let thread else { return true }
        return thread.isCurrent
    }

    static let shutDownError = ImageError(.shutDown, "the loader was shut down")

    var maxConcurrentTransfers: Int {
        get { limit.withLock { $0 } }
        set {
            limit.withLock { $0 = max(1, newValue) }
            send(.wake)
        }
    }

    var statistics: CurlImageLoader.Statistics { counters.withLock { $0 } }

    func updateStatistics(_ body: (inout CurlImageLoader.Statistics) -> Void) { counters.withLock { body(&$0) } }

    func countConnection() { updateStatistics { $0.connectionsOpened += 1 } }

    /// Seconds on a monotonic clock.
    static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    private func run() {
        while running {
            for command in inbox.withLock({ inbox in
                defer { inbox.commands = [] }
                return inbox.commands
            }) {
                handle(command)
                // A load that finds a free slot starts now, before the commands that came after it in the same
                // batch are queued: a burst to an idle LIFO loader starts its first load first, as SDWebImage's
                // operation queue does, and a later, higher priority does not overtake it.
                if case .start = command { startQueued() }
            }
            guard running else { break }
            startQueued()
            for reached in barriers { reached() }
            barriers = []
            multi.perform()
            for (pointer, result) in multi.finished() {
                transferFinished(Unmanaged<Transfer>.fromOpaque(pointer).takeUnretainedValue(), result: result)
            }
            startQueued()
            multi.poll(milliseconds: pollTimeout())
        }
        stopAll()
    }

    private func handle(_ command: Command) {
        switch command {
        case .start(let operation): attach(operation)
        case .cancel(let operation): detach(operation)
        case .reprioritize(let operation):
            guard let transfer = transferOf[ObjectIdentifier(operation)], transfer.state == .queued,
                transfer.callerPriority != transfer.queuedPriority
            else { return }
            enqueue(transfer)
        case .wake: break
        case .barrier(let reached): barriers.append(reached)
        case .shutdown: running = false
        }
    }

    /// The order key of a new transfer for `request`: its handover order, else its arrival (after every numbered
    /// one handed over so far: arrivals count in the upper half).
    func order(of request: ImageLoading.Request) -> UInt64 {
        if let order = request.handoverOrder { return order }
        arrivals += 1
        return (1 << 63) | arrivals
    }

    /// Queues `transfer` under its callers' highest priority. An entry left behind in another queue by a
    /// priority change is skipped when it comes up.
    func enqueue(_ transfer: Transfer) {
        let priority = transfer.callerPriority
        transfer.state = .queued
        transfer.queuedPriority = priority
        let p = priority.rawValue
        // Mostly in order already: insert from the end (never before the FIFO head, which was handed out).
        var index = queues[p].count
        while index > queueHeads[p] && queues[p][index - 1].order > transfer.order { index -= 1 }
        queues[p].insert(transfer, at: index)
    }

    /// The next queued transfer: highest priority first, then FIFO or LIFO.
    private func dequeue() -> Transfer? {
        for priority in ImageLoading.Priority.allCases.reversed() {
            let p = priority.rawValue
            while true {
                let candidate: Transfer
                if configuration.executionOrder == .lifo {
                    guard let last = queues[p].popLast() else { break }
                    candidate = last
                } else {
                    guard queueHeads[p] < queues[p].count else { break }
                    candidate = queues[p][queueHeads[p]]
                    queueHeads[p] += 1
                    if queueHeads[p] > 256 && queueHeads[p] * 2 > queues[p].count {
                        queues[p].removeFirst(queueHeads[p])
                        queueHeads[p] = 0
                    }
                }
                if candidate.state == .queued && candidate.queuedPriority == priority { return candidate }
            }
        }
        return nil
    }

    private func startQueued() {
        let now = Self.now
        if !retryQueue.isEmpty {
            let due = retryQueue.filter { $0.at <= now }
            retryQueue.removeAll { $0.at <= now }
            for entry in due where entry.transfer.state == .waitingForRetry { enqueue(entry.transfer) }
        }
        let maximum = maxConcurrentTransfers
        while activeCount < maximum, let transfer = dequeue() { begin(transfer) }
    }

    private func pollTimeout() -> Int32 {
        guard let next = retryQueue.map(\.at).min() else { return 1000 }
        return Int32(max(0, min(1000, (next - Self.now) * 1000)))
    }

    /// Ends every transfer at shutdown: callers get 2002, handles are freed before the multi handle.
    private func stopAll() {
        for transfer in transfers.values {
            if let easy = transfer.easy { multi.remove(easy) }
            transfer.easy = nil
            transfer.finish()
            transfer.callers.forEach { $0.finish(.failure(.loadCancelled)) }
        }
        spareEasyHandles = []
        transfers = [:]
        transferOf = [:]
        retryQueue = []
        queues = [[], [], []]
        let left = inbox.withLock { inbox in
            defer { (inbox.commands, inbox.closed) = ([], true) }
            return inbox.commands
        }
        for command in left {
            if case .start(let operation) = command { operation.finish(.failure(.loadCancelled)) }
            if case .barrier(let reached) = command { reached() }
        }
        for reached in barriers { reached() }
        barriers = []
    }
}

import Foundation
import Synchronization
import WICore

/// A loader for tests: serves registered bytes for `mock:` URLs (or any scheme given), counts loads, and can hold
/// every load at a gate until `open()` so that tests can pile up concurrent callers.
///
/// Each load emits `.progress(0, -1)`, the response head, `.partialData` chunks (when asked) with progress after
/// each, then completes on a background queue. `cancel()` completes a load with 2002 at once.
///
/// Thread safety: all state is under one lock; callbacks run outside it.
public final class MockLoader: ImageLoader, Sendable {
    private struct Pending {
        var id: Int
        var request: ImageLoading.Request
        var events: @Sendable (ImageLoading.Event) -> Void
        var completion: OnceBox
    }

    private struct State {
        var responses: [String: Result<Data, ImageError>] = [:]
        var gateOpen = true
        var pending: [Pending] = []
        var started: [String] = []
        var cancels = 0
        var nextID = 0
        var priorities: [Int: ImageLoading.Priority] = [:]
    }

    private let state = Mutex(State())
    public let scheme: String
    /// Bytes per `.partialData` chunk.
    public let chunkSize: Int
    /// A pause after each chunk, as a network would make.
    public let chunkDelay: Duration?

    public init(scheme: String = "mock", chunkSize: Int = 16, chunkDelay: Duration? = nil) {
        self.scheme = scheme
        self.chunkSize = chunkSize
        self.chunkDelay = chunkDelay
    }

    /// Serves `data` for `url`.
    public func register(_ url: URL, data: Data) {
        state.withLock { $0.responses[url.absoluteString] = .success(data) }
    }
    /// Fails `url` with `error`.
    public func register(_ url: URL, error: ImageError) {
        state.withLock { $0.responses[url.absoluteString] = .failure(error) }
    }

    /// Holds new loads until `open()`.
    public func close() { state.withLock { $0.gateOpen = false } }

    /// Releases held loads, highest priority first (FIFO among equals), and lets new ones through.
    public func open() {
        let released = state.withLock { s -> [Pending] in
            s.gateOpen = true
            defer { s.pending.removeAll() }
            let priorities = s.priorities
            return s.pending.enumerated().sorted { a, b in
                let (pa, pb) = (priorities[a.element.id] ?? .normal, priorities[b.element.id] ?? .normal)
                return pa != pb ? pa > pb : a.offset < b.offset
            }.map(\.element)
        }
        for load in released { serve(load) }
    }

    /// Loads started (let through the gate), in order.
    public var startedURLs: [String] { state.withLock { $0.started } }
    /// Loads started so far.
    public var loadCount: Int { state.withLock { $0.started.count } }
    /// Loads waiting at the gate.
    public var waitingCount: Int { state.withLock { $0.pending.count } }
    /// Loads cancelled.
    public var cancelCount: Int { state.withLock { $0.cancels } }
    /// The current priority of the waiting load for `url`, if one waits at the gate.
    public func waitingPriority(for url: URL) -> ImageLoading.Priority? {
        state.withLock { s in
            s.pending.first { $0.request.url == url }.flatMap { s.priorities[$0.id] }
        }
    }

    public func canLoad(_ url: URL) -> Bool { url.scheme == scheme }

    public func load(
        _ request: ImageLoading.Request, events: @escaping @Sendable (ImageLoading.Event) -> Void,
        completion: @escaping @Sendable (Result<ImageLoadResult, ImageError>) -> Void
    ) -> any ImageLoading.Operation {
        let box = OnceBox(completion)
        let (pending, serveNow) = state.withLock { s -> (Pending, Bool) in
            s.nextID += 1
            s.priorities[s.nextID] = request.priority
            let pending = Pending(id: s.nextID, request: request, events: events, completion: box)
            if !s.gateOpen { s.pending.append(pending) }
            return (pending, s.gateOpen)
        }
        if serveNow { serve(pending) }
        return Operation(loader: self, id: pending.id, box: box)
    }

    private func serve(_ load: Pending) {
        let response = state.withLock { s -> Result<Data, ImageError>? in
            s.started.append(load.request.url.absoluteString)
            return s.responses[load.request.url.absoluteString]
        }
        let (chunkSize, chunkDelay) = (self.chunkSize, self.chunkDelay)
        DispatchQueue.global().async {
            guard !load.completion.isDone else { return }
            load.events(.progress(received: 0, expected: -1))
            guard case .success(let data) = response else {
                if case .failure(let error) = response {
                    load.completion.call(.failure(error))
                } else {
                    load.completion.call(.failure(ImageError(.badServerResponse, "404 Not Found", statusCode: 404)))
                }
                return
            }
            let head = ImageLoading.ResponseHead(
                url: load.request.url, statusCode: 200, headers: [:],
                expectedContentLength: Int64(data.count))
            load.events(.response(head))
            var offset = 0
            while offset < data.count, !load.completion.isDone {
                let end = min(data.count, offset + chunkSize)
                if load.request.wantsPartialData { load.events(.partialData(data.subdata(in: offset..<end))) }
                offset = end
                load.events(.progress(received: Int64(offset), expected: Int64(data.count)))
                if let chunkDelay { Thread.sleep(forTimeInterval: Double(chunkDelay.components.attoseconds) / 1e18) }
            }
            load.completion.call(.success(ImageLoadResult(data: data, response: head)))
        }
    }

    /// Takes the load off the gate before its completion runs: a caller that learns of the cancellation and then
    /// calls `open()` must not see the cancelled load started (a flaky `loadCount` under TSan's slowdown, seen in
    /// `PrefetcherTests.cancelStopsTheRest`).
    fileprivate func cancel(id: Int, box: OnceBox) {
        state.withLock { $0.pending.removeAll { $0.id == id } }
        if box.call(.failure(ImageError(.cancelled, "cancelled"))) {
            state.withLock { $0.cancels += 1 }
        }
    }

    fileprivate func setPriority(_ priority: ImageLoading.Priority, id: Int) {
        state.withLock { $0.priorities[id] = priority }
    }

    private struct Operation: ImageLoading.Operation {
        let loader: MockLoader
        let id: Int
        let box: OnceBox
        func cancel() { loader.cancel(id: id, box: box) }
        func setPriority(_ priority: ImageLoading.Priority) { loader.setPriority(priority, id: id) }
    }

    /// A completion that runs at most once.
    fileprivate final class OnceBox: Sendable {
        private let completion: Mutex<(@Sendable (Result<ImageLoadResult, ImageError>) -> Void)?>
        init(_ completion: @escaping @Sendable (Result<ImageLoadResult, ImageError>) -> Void) {
            self.completion = Mutex(completion)
        }
        var isDone: Bool { completion.withLock { $0 == nil } }
        @discardableResult
        func call(_ result: Result<ImageLoadResult, ImageError>) -> Bool {
            let run = completion.withLock { c -> (@Sendable (Result<ImageLoadResult, ImageError>) -> Void)? in
                defer { c = nil }
                return c
            }
            run?(result)
            return run != nil
        }
    }
}

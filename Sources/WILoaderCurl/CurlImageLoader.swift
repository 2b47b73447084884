#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WICore

/// Loads images over HTTP(S) with libcurl's multi interface, and file: and data: URLs when allowed.
///
/// One transfer per request identity (`ImageLoading.Identity`: URL and headers after the request modifier, TLS and
/// cookie options, response modifier and decryptor) is shared by every caller of it (each cancels only itself; the transfer stops when the last
/// one leaves), at most `maxConcurrentTransfers` run at once, in priority order, over kept-alive HTTP/1.1 and
/// multiplexed HTTP/2 connections. For an image service loading user-supplied URLs, restrict it:
///
/// ```swift
/// var configuration = CurlImageLoader.Configuration()
/// configuration.addressPolicy = .publicOnly()
/// configuration.maximumBodySize = 16 << 20
/// let loader = try CurlImageLoader(configuration: configuration)
/// let result = try await loader.load(ImageLoading.Request(url: url))
/// ```
///
/// Thread safety: every method may be called from any thread. Events and completions of http(s) loads run on
/// the loader's own thread, in order, the completion last (a decryptor's result arrives from a worker thread):
/// keep them short and hand heavy work elsewhere. Releasing the loader, or `shutdown()`, cancels what it still runs
/// (2002); after `shutdown()` loads fail at once with 1010 (`.shutDown`).
public final class CurlImageLoader: ImageLoader, ShutdownCapable, Sendable {
    /// The version the User-Agent names.
    public static let libraryVersion = "0.1.0"

    /// The loader's settings.
    public let configuration: Configuration
    private let headers: LoaderHeaders
    /// Runs file: and data: loads, decryptors and response validation; threads start with the first job.
    private let workers = WorkerPool(name: "wi.curl.work", threads: 2)
    private let engine: Mutex<EngineState>
    private let shutdownOnce = AsyncOnce()

    /// The engine (libcurl's multi handle and the loader's thread), started by the first http(s) load: a process
    /// whose images all come from its caches, or from files, never loads libcurl.
    private enum EngineState {
        /// Not needed yet; `limit` is what `maxConcurrentTransfers` was set to meanwhile.
        case idle(limit: Int)
        case running(CurlEngine)
        /// libcurl could not be loaded or could not make its handles: every http(s) load fails with this.
        case failed(ImageError, limit: Int)
        case shutDown
    }

    /// A loader; its thread and libcurl start with the first http(s) load.
    ///
    /// Throws `.invalidArgument` when `configuration.validate()` does. A libcurl that cannot be loaded
    /// (`.unsupportedFormat`) or cannot allocate its handles (`.outOfMemory`) fails the http(s) loads instead.
    public init(configuration: Configuration = Configuration()) throws(ImageError) {
        try configuration.validate()
        self.configuration = configuration
        headers = LoaderHeaders(configuration)
        engine = Mutex(.idle(limit: max(1, configuration.maxConcurrentTransfers)))
    }

    deinit {
        if case .running(let engine) = engine.withLock({ $0 }) { engine.send(.shutdown) }
        workers.shutdown()
    }

    /// Transfers running at once; changing it applies to the queue right away. Values below 1 count as 1.
    public var maxConcurrentTransfers: Int {
        get {
            engine.withLock { state in
                switch state {
                case .idle(let limit), .failed(_, let limit): limit
                case .running(let engine): engine.maxConcurrentTransfers
                case .shutDown: max(1, configuration.maxConcurrentTransfers)
                }
            }
        }
        set {
            engine.withLock { state in
                switch state {
                case .idle: state = .idle(limit: max(1, newValue))
                case .failed(let error, _): state = .failed(error, limit: max(1, newValue))
                case .running(let engine): engine.maxConcurrentTransfers = newValue
                case .shutDown: break
                }
            }
        }
    }

    /// Counters of what the loader did so far.
    public var statistics: Statistics { runningEngine?.statistics ?? Statistics() }

    /// Whether the first http(s) load started libcurl and the loader's thread (for tests).
    package var hasStarted: Bool { runningEngine != nil }

    private var runningEngine: CurlEngine? {
        engine.withLock { if case .running(let engine) = $0 { engine } else { nil } }
    }

    /// The running engine, started now if this is the first http(s) load; the reason when it cannot run.
    private func startedEngine() -> Result<CurlEngine, ImageError> {
        engine.withLock { state in
            switch state {
            case .running(let engine): return .success(engine)
            case .failed(let error, _): return .failure(error)
            case .shutDown: return .failure(CurlEngine.shutDownError)
            case .idle(let limit):
                do throws(ImageError) {
                    let engine = try CurlEngine(
                        configuration: configuration, headers: headers, workers: workers,
                        limit: limit)
                    state = .running(engine)
                    return .success(engine)
                } catch {
                    state = .failed(error, limit: limit)
                    return .failure(error)
                }
            }
        }
    }

    public func canLoad(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return ["http", "https", "file", "data"].contains(scheme) && configuration.allowedSchemes.contains(scheme)
    }

    public func load(
        _ request: ImageLoading.Request, events: @escaping @Sendable (ImageLoading.Event) -> Void,
        completion: @escaping @Sendable (Result<ImageLoadResult, ImageError>) -> Void
    )
        -> any ImageLoading.Operation
    {
        guard let scheme = request.url.scheme?.lowercased() else {
            completion(.failure(ImageError(.invalidURL, "the URL has no scheme: \(request.url.absoluteString)")))
            return ImageLoading.FinishedOperation()
        }
        guard canLoad(request.url) else {
            completion(.failure(ImageError(.schemeNotAllowed, "the scheme \(scheme) is not allowed")))
            return ImageLoading.FinishedOperation()
        }
        if scheme == "file" || scheme == "data" {
            guard !isShutDown else { return failed(CurlEngine.shutDownError, completion) }
            let operation = CurlLoadOperation(
                request: request, identity: identity(of: request), engine: nil,
                events: events, completion: completion)
            LocalLoad.start(operation, configuration: configuration, pool: workers)
            return operation
        }
        let engine: CurlEngine
        switch startedEngine() {
        case .success(let running) where !running.isShutDown: engine = running
        case .success: return failed(CurlEngine.shutDownError, completion)
        case .failure(let error): return failed(error, completion)
        }
        let operation = CurlLoadOperation(
            request: request, identity: identity(of: request), engine: engine,
            events: events, completion: completion)
        engine.send(.start(operation))
        return operation
    }

    /// Returns once the loader's thread has handled every load, cancellation and change sent before this call, and
    /// has started what its queue allows: a point where tests can check what runs and what waits.
    package func settle() async {
        guard let engine = runningEngine else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            engine.send(.barrier { continuation.resume() })
        }
    }

    /// Whether `shutdown()` was called or the loader's thread stopped.
    private var isShutDown: Bool {
        engine.withLock { state in
            switch state {
            case .shutDown: true
            case .running(let engine): engine.isShutDown
            case .idle, .failed: false
            }
        }
    }

    private func failed(_ error: ImageError, _ completion: @Sendable (Result<ImageLoadResult, ImageError>) -> Void)
        -> any ImageLoading.Operation
    {
        completion(.failure(error))
        return ImageLoading.FinishedOperation()
    }

    /// The identity of `request` with this loader's own headers (Accept, User-Agent, the configuration's). An
    /// Accept header made from `acceptedFormats` and the default User-Agent are the same for every request of the
    /// loader, so they are left out (and not asked for) unless a request modifier is to see the headers.
    public func identity(of request: ImageLoading.Request) -> ImageLoading.Identity {
        let modified = request.context[.requestModifier] != nil
        return ImageLoading.Identity(request, defaultHeaders: modified ? headers.all : headers.known)
    }

    /// Cancels every load (2002), ends the loader's thread and its worker threads, and waits for them; later loads
    /// fail at once with 1010 (`.shutDown`). Idempotent.
    public func shutdown() async {
        await shutdownOnce.run { [self] in
            let running = engine.withLock { state -> CurlEngine? in
                defer { state = .shutDown }
                if case .running(let engine) = state { return engine }
                return nil
            }
            await running?.shutdown()
            workers.shutdown()
        }
    }

    /// Blocks what will fail again: bad URLs and data, refused schemes and addresses, redirect loops, oversized
    /// bodies, missing files. Never blocks cancellations, timeouts, network errors or HTTP statuses (404 too).
    public func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool {
        [
            .invalidURL, .badImageData, .schemeNotAllowed, .addressNotAllowed, .tooManyRedirects, .bodyTooLarge,
            .fileNotReadable,
        ].contains(error.code)
    }

    /// What the loader did so far, for monitoring and tests.
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct Statistics: Sendable, Hashable {
        /// libcurl easy handles alive now (one per running transfer; 0 when idle).
        public var liveEasyHandles = 0
        /// Easy handles kept for reuse after a clean HTTP/1.x transfer (at most `maxConcurrentTransfers`, at
        /// most 16; freed when the loader is released).
        public var spareEasyHandles = 0
        /// Transfers that ran on a reused (reset) easy handle instead of a new one.
        public var easyHandlesReused = 0
        /// Transfers handed to libcurl (retries and restarts count again).
        public var transfersStarted = 0
        /// Connections opened (each after the address policy approved it); reused connections do not count.
        public var connectionsOpened = 0
    }
}

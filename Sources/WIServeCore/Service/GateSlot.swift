#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WICore

/// One admitted request's slot in the `AdmissionGate`: held while the request works, given back while it waits
/// for its source's bytes, taken again before it decodes, and released once when the request ends.
///
/// Thread safety: every method may be called from any thread; one lock guards the state.
package final class GateSlot: Sendable {
    private enum State {
        /// The request holds a slot.
        case held
        /// The slot was given back while bytes are awaited.
        case suspended
        /// Waiting in line for a slot again.
        case resuming
        /// The request ended (or lost its place): it holds nothing.
        case released
    }

    private let gate: AdmissionGate
    private let state = Mutex(State.held)

    /// The slot of a request `gate` just admitted.
    package init(admittedBy gate: AdmissionGate) {
        self.gate = gate
    }

    /// Gives the slot back while the request waits for bytes (nothing when it does not hold one).
    package func suspend() {
        let suspends = state.withLock { s -> Bool in
            guard case .held = s else { return false }
            s = .suspended
            return true
        }
        if suspends { gate.suspend() }
    }

    /// Takes a slot again after `suspend()`, ahead of requests that never had one. False when the task was
    /// cancelled while it waited (the request then holds nothing). True at once when the slot is held, or when the
    /// request already ended (a download shared with other requests outlived the one that started it).
    package func resume() async -> Bool {
        let resumes = state.withLock { s -> Bool in
            guard case .suspended = s else { return false }
            s = .resuming
            return true
        }
        guard resumes else { return true }
        let granted = await gate.resume()
        let giveBack = state.withLock { s -> Bool in
            guard case .resuming = s else { return granted }  // ended while in line: the slot is not its own
            s = granted ? .held : .released
            return false
        }
        if giveBack { gate.release() }
        return granted
    }

    /// The request ended: gives back what it holds (a slot, or its place among the suspended). Idempotent.
    package func finish() {
        let previous = state.withLock { s -> State in
            defer { s = .released }
            return s
        }
        switch previous {
        case .held: gate.release()
        case .suspended: gate.endSuspension()
        case .resuming, .released: break  // `resume()` gives back a slot granted after this
        }
    }
}

extension ImageContext.Key where Value == GateSlot {
    /// The admitted request's slot, which the service's loaders give back while they wait for bytes (role
    /// `.irrelevant`: requests that differ only in their slot share work).
    package static var gateSlot: Self { Self("wi.serve.gateSlot", role: .irrelevant) }
}

/// The service's loader: gives the requesting slot (`context[.gateSlot]`) back while the source's bytes are
/// awaited, and takes one again before the completion (the decode) runs. A request that waits on an origin (a
/// slow one, or this same service for a nested thumbor URL) thus holds no slot meant for CPU work.
///
/// A class, so that its identity is the instance: loads through it share downloads (a struct that is not
/// `Hashable` would make every load private).
///
/// Thread safety: stateless apart from the wrapped loader, which accepts calls from any thread.
package final class SlotYieldingLoader: ImageLoader {
    let wrapped: any ImageLoader

    package init(wrapping loader: any ImageLoader) {
        wrapped = loader
    }

    package func canLoad(_ url: URL) -> Bool { wrapped.canLoad(url) }

    package func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool {
        wrapped.shouldBlockFailedURL(url, error: error)
    }

    package func identity(of request: ImageLoading.Request) -> ImageLoading.Identity { wrapped.identity(of: request) }

    package func load(
        _ request: ImageLoading.Request, events: @escaping @Sendable (ImageLoading.Event) -> Void,
        completion: @escaping @Sendable (Result<ImageLoadResult, ImageError>) -> Void
    )
        -> any ImageLoading.Operation
    {
        guard let slot = request.context[.gateSlot] else {
            return wrapped.load(request, events: events, completion: completion)
        }
        let operation = Resumption()
        slot.suspend()
        let inner = wrapped.load(request, events: events) { result in
            // A failed load ends the request without a decode: it needs no slot (its end releases its place).
            guard case .success = result else { return completion(result) }
            operation.start {
                let resumed = await slot.resume()
                completion(resumed ? result : .failure(ImageError(.cancelled, "the request was cancelled")))
            }
        }
        operation.attach(inner)
        return operation
    }

    /// The wrapped operation, then the wait for a slot: `cancel()` stops whichever runs.
    private final class Resumption: ImageLoading.Operation {
        private let state = Mutex<(inner: (any ImageLoading.Operation)?, task: Task<Void, Never>?, cancelled: Bool)>(
            (nil, nil, false))

        func attach(_ inner: any ImageLoading.Operation) {
            let cancelled = state.withLock { s -> Bool in
                s.inner = inner
                return s.cancelled
            }
            if cancelled { inner.cancel() }
        }

        func start(_ work: @escaping @Sendable () async -> Void) {
            let task = Task { await work() }
            let cancelled = state.withLock { s -> Bool in
                s.task = task
                return s.cancelled
            }
            if cancelled { task.cancel() }
        }

        func cancel() {
            let (inner, task) = state.withLock { s in
                s.cancelled = true
                return (s.inner, s.task)
            }
            inner?.cancel()
            task?.cancel()
        }

        func setPriority(_ priority: ImageLoading.Priority) {
            state.withLock { $0.inner }?.setPriority(priority)
        }
    }
}

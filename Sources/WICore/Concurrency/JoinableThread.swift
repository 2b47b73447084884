#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A thread that can be waited for: `join()` returns once its body has returned and the thread is gone, so that
/// a component's shutdown leaves no thread behind (Foundation's `Thread` cannot be joined).
///
/// Thread safety: `join` may be called from any other thread (the first call waits, later ones return at once);
/// `isCurrent` from any thread.
package final class JoinableThread: Sendable {
    private final class Box: Sendable {
        let body: @Sendable () -> Void
        /// The thread as it sees itself, recorded before `body` runs.
        let running = Mutex<pthread_t?>(nil)
        init(body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private let box: Box
    /// The handle to join, until it is joined.
    private let joinable: Mutex<pthread_t?>

    /// Starts `body` on a new thread (`name` only documents the caller's purpose). Nil when the system refuses a
    /// thread (resource limits).
    package init?(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Box(body: body)
        let retained = Unmanaged.passRetained(box)
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            let box = Unmanaged<Box>.fromOpaque(argument).takeRetainedValue()
            box.running.withLock { $0 = pthread_self() }
            box.body()
            return nil
        }, retained.toOpaque())
        guard status == 0 else {
            retained.release()
            return nil
        }
        self.box = box
        joinable = Mutex(thread)
    }

    /// Waits until the thread has ended. Must not be called from the thread itself.
    package func join() {
        guard let thread = joinable.withLock({ handle in defer { handle = nil }; return handle }) else { return }
        pthread_join(thread, nil)
    }

    /// Whether the calling thread is this thread.
    package var isCurrent: Bool {
        guard let running = box.running.withLock({ $0 }) else { return false }
        return pthread_equal(running, pthread_self()) != 0
    }
}

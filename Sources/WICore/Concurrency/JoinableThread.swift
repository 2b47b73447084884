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
/// The thread holds its body only while it runs: an owner that the body captures is not kept alive by this object.
///
/// Thread safety: `join` may be called from any other thread (the first call waits, later ones return at once);
/// `isCurrent` from any thread.
package final class JoinableThread: Sendable {
    /// The thread as it sees itself, recorded before the body runs.
    private final class Identity: Sendable {
        let running = Mutex<pthread_t?>(nil)
    }

    /// What the new thread receives: its body and where to record itself. Released by the thread when it ends.
    private final class Start: Sendable {
        let body: @Sendable () -> Void
        let identity: Identity
        init(body: @escaping @Sendable () -> Void, identity: Identity) {
            self.body = body
            self.identity = identity
        }
    }

    private let identity = Identity()
    /// The handle to join, until it is joined.
    private let joinable: Mutex<pthread_t?>

    /// Starts `body` on a new thread (`name` only documents the caller's purpose). Nil when the system refuses a
    /// thread (resource limits).
    package init?(name: String, _ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(body: body, identity: identity))
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                let start = Unmanaged<Start>.fromOpaque(argument).takeRetainedValue()
                start.identity.running.withLock { $0 = pthread_self() }
                start.body()
                return nil
            }, start.toOpaque())
        guard status == 0 else {
            start.release()
            return nil
        }
        joinable = Mutex(thread)
    }

    /// Waits until the thread has ended. Must not be called from the thread itself.
    package func join() {
        guard
            let thread = joinable.withLock({ handle in
                defer { handle = nil }
                return handle
            })
        else { return }
        pthread_join(thread, nil)
    }

    /// Whether the calling thread is this thread.
    package var isCurrent: Bool {
        guard let running = identity.running.withLock({ $0 }) else { return false }
        return pthread_equal(running, pthread_self()) != 0
    }
}

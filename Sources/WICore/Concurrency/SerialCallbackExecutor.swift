#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import Synchronization

extension ImageManager {
    /// Runs callbacks one at a time, in the order they were handed over, on a serial dispatch queue of its own
    /// (SDWebImage's `SDCallbackQueue`); set it as `context[.callbackExecutor]`.
    ///
    /// Callbacks of every load given the same executor never overlap, so they may touch the caller's state
    /// without a lock. No thread is kept while idle, and nothing needs shutting down.
    ///
    /// ```swift
    /// let callbacks = ImageManager.SerialCallbackExecutor(label: "app.images")
    /// var context = ImageContext()
    /// context[.callbackExecutor] = callbacks
    /// manager.loadImage(with: url, context: context) { result in assert(callbacks.isCurrent) }
    /// ```
    ///
    /// Thread safety: `execute` and `isCurrent` may be called from any thread.
    public final class SerialCallbackExecutor: CallbackExecutor {
        private let queue: DispatchQueue
        /// The thread running a callback now (the queue runs one at a time), or nil.
        private let running = Mutex<pthread_t?>(nil)

        /// An executor on a new serial queue named `label`.
        public init(label: String = "webimage.callbacks") {
            queue = DispatchQueue(label: label)
        }

        /// Queues `work` behind every callback handed over before it.
        public func execute(_ work: @escaping @Sendable () -> Void) {
            queue.async { [self] in
                running.withLock { $0 = pthread_self() }
                defer { running.withLock { $0 = nil } }
                work()
            }
        }

        /// Whether the calling code runs inside a callback of this executor.
        public var isCurrent: Bool {
            let me = pthread_self()
            return running.withLock { $0.map { pthread_equal($0, me) != 0 } ?? false }
        }
    }
}

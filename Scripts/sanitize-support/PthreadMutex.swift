// Copied by Scripts/sanitize into every module of the ThreadSanitizer build (never part of the real package).
//
// Why: Synchronization.Mutex on Linux waits on a futex whose lock word is changed by code TSan does not instrument,
// so TSan sees no happens-before edge between two critical sections and reports every Mutex-guarded access as a race
// (docs/RELIABILITY.md, "Sanitizers"). TSan intercepts pthread_mutex_lock/unlock. Declared in the module itself, this
// type shadows the imported Synchronization.Mutex, so the same sources lock through pthreads in the TSan build and
// TSan can vouch for them: with it, any TSan report fails `make sanitize`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pthread-mutex lock with `Synchronization.Mutex`'s shape (`init(_:)`, `withLock`), for sanitizer builds only.
///
/// Thread safety: `withLock` may be called from any thread; the value is only reached inside it.
final class Mutex<Value>: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ initialValue: consuming sending Value) {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value)
    }
}

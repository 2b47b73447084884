#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with a condition variable (pthread's), for threads that sleep until work arrives, and a lock held across
/// a call that may not come back to the same scope (a trial lock): what Foundation's `NSCondition` and `NSLock`
/// are, without linking Foundation (FoundationEssentials has neither; Synchronization's `Mutex` cannot wait).
///
/// Thread safety: every method may be called from any thread; `wait`, `signal` and `broadcast` only while the
/// caller holds the lock.
// @unchecked Sendable: the two pthread objects are made in init, destroyed in deinit and otherwise only passed to
// pthread calls, which are thread-safe by contract; their addresses never change (heap-allocated).
package final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
    /// Takes the lock when it is free; false (without waiting) when another thread holds it.
    package func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }
    /// Releases the lock, sleeps until signalled (or spuriously), and takes the lock again.
    package func wait() { pthread_cond_wait(condition, mutex) }
    /// Wakes one waiting thread.
    package func signal() { pthread_cond_signal(condition) }
    /// Wakes every waiting thread.
    package func broadcast() { pthread_cond_broadcast(condition) }
}

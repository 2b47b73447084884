/// A component that owns threads, connections or background work and can end them: the loader, caches, the
/// Redis tier, worker pools. `ImageManager.shutdown()` calls it on the components the manager owns.
///
/// Thread safety: `shutdown()` may be called from any task, more than once; later calls return when the first
/// one has finished.
public protocol ShutdownCapable: Sendable {
    /// Stops accepting work, finishes or cancels what is in flight (each component documents which), and ends
    /// every thread it started before returning.
    func shutdown() async
}

// The synchronous `shutdown()` (it waits only for the jobs already queued) witnesses the async requirement.
extension WorkerPool: ShutdownCapable {}

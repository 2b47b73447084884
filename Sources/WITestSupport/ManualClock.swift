import Synchronization

/// A clock that moves only when told to, for time-to-live tests.
///
/// Thread safety: the time is under a `Mutex`; any thread may read or advance it.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        public var offset: Duration
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current = Mutex(Instant(offset: .zero))

    public init() {}

    public var now: Instant { current.withLock { $0 } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    public func advance(by duration: Duration) { current.withLock { $0 = $0.advanced(by: duration) } }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        while now < deadline {
            try Task.checkCancellation()
            await Task.yield()
        }
    }
}

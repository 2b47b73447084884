import WICore

/// How hard the system is pressed for memory, as reported by a `MemoryPressureSource`.
public enum MemoryPressureLevel: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Tasks are stalling on memory now and then: trim (`MemoryCache` keeps `pressureTrimRatio` of its cost).
    case warning = 1
    /// Tasks are stalling on memory for long stretches, or the cgroup hit its limit: free all you can
    /// (`MemoryCache` empties its strong tier; the weak tier costs nothing and stays).
    case critical = 2

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { self == .warning ? "warning" : "critical" }
}

/// Something that tells when memory pressure rises: `LinuxMemoryPressureSource` reads the kernel's pressure
/// stall information; tests use a fake that fires on demand.
///
/// ```swift
/// let token = source.subscribe { level in print("memory pressure:", level) }
/// token.cancel()   // no more calls
/// ```
///
/// Thread safety: implementations may call handlers on any thread; `subscribe` may be called from any thread.
public protocol MemoryPressureSource: Sendable {
    /// Calls `handler` each time pressure rises (to `.warning`, or from `.warning` to `.critical`) until the
    /// returned token is cancelled.
    func subscribe(_ handler: @escaping @Sendable (MemoryPressureLevel) -> Void) -> CancellationToken
}

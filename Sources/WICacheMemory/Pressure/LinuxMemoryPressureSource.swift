#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Synchronization
import WICore

/// Memory pressure from the Linux kernel: polls pressure stall information (PSI, `/proc/pressure/memory`) or, where
/// PSI is missing, the process's cgroup v2 `memory.events` counters.
///
/// PSI: `.warning` when `some avg10` (share of the last 10 s in which some task waited for memory) reaches
/// `warningSome` percent, `.critical` when `full avg10` reaches `criticalFull` percent. cgroup v2: `.warning` when the
/// `high` counter moved since the last poll, `.critical` when `max` or `oom` moved. Handlers run on the source's
/// polling thread, only when the level rises; a source that finds neither file never calls them.
///
/// ```swift
/// let cache = MemoryCache(pressureSource: LinuxMemoryPressureSource())
/// ```
///
/// Thread safety: immutable; `subscribe` may be called from any thread, and each subscription polls on its own
/// thread (reading a few hundred bytes from procfs or cgroupfs per interval) until its token is cancelled.
public final class LinuxMemoryPressureSource: MemoryPressureSource {
    /// What the source reads.
    public enum Mode: Sendable, Hashable {
        /// Pressure stall information at this path.
        case psi(String)
        /// A cgroup v2 `memory.events` file at this path.
        case cgroupEvents(String)
        /// Nothing readable: the source never reports.
        case unavailable
    }

    /// What this source reads, chosen when it was made.
    public let mode: Mode
    /// Time between two readings.
    public let interval: Duration
    /// PSI `some avg10` percent that means `.warning` (default 10).
    public let warningSome: Double
    /// PSI `full avg10` percent that means `.critical` (default 10).
    public let criticalFull: Double

    /// A source reading `/proc/pressure/memory` if readable, else this process's cgroup v2 `memory.events`.
    public convenience init(interval: Duration = .seconds(1), warningSome: Double = 10, criticalFull: Double = 10) {
        self.init(mode: Self.detectMode(), interval: interval, warningSome: warningSome, criticalFull: criticalFull)
    }

    /// A source reading what `mode` names (tests point it at files they write).
    public init(mode: Mode, interval: Duration = .seconds(1), warningSome: Double = 10, criticalFull: Double = 10) {
        self.mode = mode
        self.interval = interval
        self.warningSome = warningSome
        self.criticalFull = criticalFull
    }

    /// PSI if `/proc/pressure/memory` parses, else the cgroup v2 `memory.events` named by `/proc/self/cgroup`.
    public static func detectMode(
        psiPath: String = "/proc/pressure/memory",
        cgroupPath: String = "/proc/self/cgroup"
    ) -> Mode {
        if read(psiPath).flatMap(PressureReading.parsePSI) != nil { return .psi(psiPath) }
        // cgroup v2 has one line "0::/path"; the unified hierarchy is mounted at /sys/fs/cgroup.
        if let lines = read(cgroupPath)?.split(separator: "\n"),
            let line = lines.first(where: { $0.hasPrefix("0::") })
        {
            let events = "/sys/fs/cgroup" + line.dropFirst(3) + "/memory.events"
            if read(events).flatMap(PressureReading.parseEvents) != nil { return .cgroupEvents(events) }
        }
        return .unavailable
    }

    /// Starts a polling thread that calls `handler` on each rise; cancelling the token stops the thread and waits
    /// for it to end (from another thread), so no call of `handler` follows `cancel()`.
    public func subscribe(_ handler: @escaping @Sendable (MemoryPressureLevel) -> Void) -> CancellationToken {
        let loop = PollLoop()
        guard mode != .unavailable else { return CancellationToken {} }
        let mode = mode
        let interval = interval
        let tracker = PressureTracker(warningSome: warningSome, criticalFull: criticalFull)
        let thread = JoinableThread(name: "wi.memory-pressure") {
            var tracker = tracker
            let seconds = Double(MemoryCache.nanoseconds(interval)) / 1e9
            while !loop.stopped.load(ordering: .acquiring) {
                if let reading = Self.reading(mode), let level = tracker.update(reading),
                    !loop.stopped.load(ordering: .acquiring)
                {
                    handler(level)
                }
                _ = loop.wake.wait(timeout: .now() + seconds)
            }
        }
        return CancellationToken {
            loop.stopped.store(true, ordering: .releasing)
            loop.wake.signal()
            if let thread, !thread.isCurrent { thread.join() }
        }
    }

    private static func reading(_ mode: Mode) -> PressureReading? {
        switch mode {
        case .psi(let path): read(path).flatMap(PressureReading.parsePSI)
        case .cgroupEvents(let path): read(path).flatMap(PressureReading.parseEvents)
        case .unavailable: nil
        }
    }

    /// A small procfs/cgroupfs file (these report size 0, so read until end of file).
    private static func read(_ path: String) -> String? {
        guard case .success(let data) = SystemFile.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A polling thread's stop flag and the semaphore that wakes it early.
private final class PollLoop: Sendable {
    let stopped = Atomic<Bool>(false)
    let wake = DispatchSemaphore(value: 0)
}

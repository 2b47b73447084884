import Dispatch
import Foundation
import WICore
#if canImport(Glibc)
import Glibc
#endif

extension DiskCache {
    /// Removes entries older than `maxAge`, then, when the total exceeds `sizeLimit`, the oldest entries until it
    /// is at most `sizeLimit * trimRatio`. Also deletes stale temporary files and orphaned sidecars, and rebuilds
    /// the index from the scan. Waits for a trim running in another process to finish first.
    @discardableResult
    public func removeExpired() throws(ImageError) -> TrimResult {
        try trim(wait: true) ?? TrimResult()
    }

    /// Removes every entry (and extended data). Temporary files of writes in flight are left alone.
    public func removeAll() throws(ImageError) {
        try exclusively(wait: true) { () throws(ImageError) in
            let before = generation?.load()
            let scan = try DirectoryScan(directory, staleBefore: staleTemporaryCutoff())
            var firstError: ImageError?
            for entry in scan.entries {
                do throws(ImageError) {
                    try EntryFiles.remove(directory + "/" + entry.name)
                } catch {
                    firstError = firstError ?? error
                }
            }
            for name in scan.sidecars { try? EntryFiles.remove(sidecarPath(name)) }
            install(DiskIndex(), seen: before)
            if let firstError { throw firstError }
        }
    }

    /// One trim; nil when `wait` is false and another trim (in this or another process) is running.
    func trim(wait: Bool) throws(ImageError) -> TrimResult? {
        try exclusively(wait: wait) { () throws(ImageError) -> TrimResult in
            let before = generation?.load()
            let now = configuration.now()
            let scan = try DirectoryScan(directory, staleBefore: now.addingTimeInterval(-configuration.staleTemporaryFileAge))
            var index = DiskIndex()
            for entry in scan.entries { index.set(entry.name, indexEntry(entry.status)) }
            index.obstructed = scan.obstructed
            var result = TrimResult()
            var dated = scan.entries.map { ($0.name, index[$0.name]!) }.sorted { $0.1.date < $1.1.date }
            if configuration.maxAge >= 0 {
                let cutoff = now.addingTimeInterval(-configuration.maxAge)
                let expired = dated.prefix { $0.1.date < cutoff }
                for (name, entry) in expired where delete(name) {
                    index.remove(name)
                    result.expiredCount += 1
                    result.removedBytes += entry.size
                }
                dated.removeFirst(expired.count)
            }
            let limit = configuration.sizeLimit
            if limit > 0 && index.totalSize > limit {
                let target = Int64(Double(limit) * min(max(configuration.trimRatio, 0), 1))
                for (name, entry) in dated where index.totalSize > target && delete(name) {
                    index.remove(name)
                    result.evictedCount += 1
                    result.removedBytes += entry.size
                }
            }
            for name in scan.sidecars where index[name] == nil { try? EntryFiles.remove(sidecarPath(name)) }
            install(index, seen: before)
            return result
        }
    }

    /// Deletes the entry file `name` and its sidecar; false when it could not be deleted.
    private func delete(_ name: String) -> Bool {
        do { try EntryFiles.remove(directory + "/" + name) } catch { return false }
        if state.withLock({ $0.usesSidecars }) { try? EntryFiles.remove(sidecarPath(name)) }
        return true
    }

    /// Runs `body` holding the trim lock: `trimGate` within this process, `flock` on the lock file across
    /// processes. Returns nil without running it when `wait` is false and the lock is taken.
    func exclusively<T>(wait: Bool, _ body: () throws(ImageError) -> T) throws(ImageError) -> T? {
        if wait { trimGate.lock() } else if !trimGate.try() { return nil }
        defer { trimGate.unlock() }
        if lockFile >= 0 {
            if POSIX.retrying({ flock(lockFile, LOCK_EX | (wait ? 0 : LOCK_NB)) }) != 0 {
                if errno == EWOULDBLOCK { return nil }
                throw POSIX.fail("flock", directory + "/" + Self.lockFileName)
            }
        }
        defer { if lockFile >= 0 { flock(lockFile, LOCK_UN) } }
        return try body()
    }

    /// Starts the background trim: a timer on a private dispatch queue that skips a round when another process
    /// is trimming. It holds the cache weakly (through `owner`) and is cancelled in deinit.
    static func startTrimTimer(every interval: Duration, owner: WeakCache) -> any DispatchSourceTimer {
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "wi.disk-cache.trim", qos: .utility))
        let nanoseconds = max(1, Int(interval.components.seconds * 1_000_000_000
            + interval.components.attoseconds / 1_000_000_000))
        source.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
                        leeway: .nanoseconds(nanoseconds / 10))
        source.setEventHandler { _ = try? owner.cache?.trim(wait: false) }
        source.resume()
        return source
    }
}

/// A weak reference to the cache for its trim timer, so the timer does not keep the cache alive.
// @unchecked Sendable: `cache` is written once, in the cache's init, before the timer's first deadline can pass
// unobserved; afterwards it is only read (weak loads are atomic in Swift).
final class WeakCache: @unchecked Sendable {
    weak var cache: DiskCache?
}

import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
            beginScan()
            defer { endScan() }
            let before = generation?.load()
            let scan = try DirectoryScan(directory, staleBefore: staleTemporaryCutoff())
            var firstError: ImageError?
            for entry in scan.entries {
                do throws(ImageError) {
                    try EntryFiles.remove(entry.name.path(prefix: directoryPrefix))
                } catch {
                    firstError = firstError ?? error
                }
            }
            for name in scan.sidecars { try? EntryFiles.remove(sidecarPath(name)) }
            for name in scan.httpSidecars { try? EntryFiles.remove(httpSidecarPath(name)) }
            install(DiskIndex(), seen: before)
            if let firstError { throw firstError }
        }
    }

    /// One trim; nil when `wait` is false and another trim (in this or another process) is running. With
    /// `useIndex`, an index known to be complete and current stands in for the directory scan (no stale temporary
    /// files or orphaned sidecars are looked for then).
    func trim(wait: Bool, useIndex: Bool = false) throws(ImageError) -> TrimResult? {
        try exclusively(wait: wait) { () throws(ImageError) -> TrimResult in
            beginScan()
            defer { endScan() }
            let before = generation?.load()
            let now = configuration.now()
            var index: DiskIndex
            var sidecars: Set<EntryName> = []
            var httpSidecars: Set<EntryName> = []
            /// The entries in the order the directory lists them (the index's own order without a scan).
            var listing: [(name: EntryName, entry: DiskIndex.Entry)]
            if useIndex, let current = currentIndex(generation: before) {
                index = current
                listing = index.entries.map { ($0.key, $0.value) }
            } else {
                let scan = try DirectoryScan(
                    directory, staleBefore: now.addingTimeInterval(-configuration.staleTemporaryFileAge))
                index = DiskIndex(capacity: scan.entries.count)
                listing = []
                listing.reserveCapacity(scan.entries.count)
                for (name, status) in scan.entries {
                    let entry = indexEntry(status)
                    index.set(name, entry)
                    listing.append((name, entry))
                }
                index.obstructed = scan.obstructed
                sidecars = scan.sidecars
                httpSidecars = scan.httpSidecars
            }
            var result = TrimResult()
            let limit = configuration.sizeLimit
            let target = Int64(Double(limit) * min(max(configuration.trimRatio, 0), 1))
            let cutoff = configuration.maxAge >= 0 ? now.addingTimeInterval(-configuration.maxAge) : nil
            let expires = cutoff.map { cutoff in listing.contains { $0.entry.date < cutoff } } ?? false
            // Positions in `listing`, oldest first (expired entries are its head); sorted once, and only when
            // something goes.
            let dated =
                expires || (limit > 0 && index.totalSize > limit)
                ? listing.indices.sorted { listing[$0].entry.date < listing[$1].entry.date } : []
            // The victims, chosen oldest first: the expired ones, then as many as the size target needs.
            var victims: [Int] = []
            var next = 0
            var remaining = index.totalSize
            if let cutoff {
                while next < dated.count && listing[dated[next]].entry.date < cutoff {
                    victims.append(dated[next])
                    remaining -= listing[dated[next]].entry.size
                    next += 1
                }
            }
            let sizePass = limit > 0 && remaining > limit
            if sizePass {
                while next < dated.count && remaining > target {
                    victims.append(dated[next])
                    remaining -= listing[dated[next]].entry.size
                    next += 1
                }
            }
            let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            defer { if directoryFD >= 0 { close(directoryFD) } }
            let removesSidecars = state.withLock { $0.usesSidecars }
            // Unlinked in the order the directory lists them: ext4 then rewrites its hash-tree blocks one after
            // another instead of jumping between them (the set removed is the same).
            for position in victims.sorted() {
                let (name, entry) = listing[position]
                guard delete(name, in: directoryFD, sidecar: removesSidecars) else { continue }
                index.remove(name)
                // The size pass takes entries only after every expired one, so the date tells which pass it was.
                if let cutoff, entry.date < cutoff { result.expiredCount += 1 } else { result.evictedCount += 1 }
                result.removedBytes += entry.size
            }
            // Entries that could not be deleted still count: the size pass goes on with the next oldest.
            while sizePass && next < dated.count && index.totalSize > target {
                let (name, entry) = listing[dated[next]]
                next += 1
                guard delete(name, in: directoryFD, sidecar: removesSidecars) else { continue }
                index.remove(name)
                result.evictedCount += 1
                result.removedBytes += entry.size
            }
            for name in sidecars where index[name] == nil { try? EntryFiles.remove(sidecarPath(name)) }
            for name in httpSidecars where index[name] == nil { try? EntryFiles.remove(httpSidecarPath(name)) }
            install(index, seen: before)
            return result
        }
    }

    /// The index when it is complete for the shared generation `generation` and its dates are the ones on disk
    /// (modification dates: only writes change them, and every write bumps the generation); nil otherwise.
    private func currentIndex(generation current: UInt64?) -> DiskIndex? {
        guard configuration.expiryDate == .modification else { return nil }
        return state.withLock { state in
            guard let index = state.index, let seen = state.seenGeneration, seen == current else { return nil }
            return index
        }
    }

    /// Deletes the entry file `name` (and its sidecar when sidecars are in use); false when it could not be deleted.
    private func delete(_ name: EntryName, in directoryFD: Int32, sidecar: Bool) -> Bool {
        if directoryFD >= 0 {
            let failed = name.withCString { unlinkat(directoryFD, $0, 0) } != 0
            if failed && errno != ENOENT { return false }
        } else {
            do { try EntryFiles.remove(name.path(prefix: directoryPrefix)) } catch { return false }
        }
        if sidecar {
            try? EntryFiles.remove(sidecarPath(name))
            try? EntryFiles.remove(httpSidecarPath(name))
        }
        return true
    }

    /// Runs `body` holding the trim lock: `trimGate` within this process, `flock` on the lock file across
    /// processes. Returns nil without running it when `wait` is false and the lock is taken.
    func exclusively<T>(wait: Bool, _ body: () throws(ImageError) -> T) throws(ImageError) -> T? {
        if wait { trimGate.lock() } else if !trimGate.tryLock() { return nil }
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

    /// Queues a trim on `trimQueue` (a store pushed the total over the size limit, or did not know it): it builds
    /// the index when there is none and trims when the total is over the limit, from the index when that is current.
    /// Skipped while another process trims. It holds the cache weakly.
    func scheduleTrim() {
        trimQueue.async { [weak self] in
            guard let self else { return }
            // Cleared first: a store during this trim that goes over the limit again queues the next one.
            state.withLock { $0.trimPending = false }
            guard withIndex({ $0.totalSize }) > configuration.sizeLimit else { return }
            _ = try? trim(wait: false, useIndex: true)
        }
    }

    /// Waits until the background trims queued so far (by stores over the limit, or the timer) have finished.
    package func waitForBackgroundTrims() {
        trimQueue.sync {}
    }

    /// Starts the background trim: a timer on `queue` that skips a round when another process is trimming. It
    /// holds the cache weakly (through `owner`) and is cancelled in deinit.
    static func startTrimTimer(every interval: Duration, on queue: DispatchQueue, owner: WeakCache)
        -> any DispatchSourceTimer
    {
        let source = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = max(
            1,
            Int(
                interval.components.seconds * 1_000_000_000
                    + interval.components.attoseconds / 1_000_000_000))
        source.schedule(
            deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
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

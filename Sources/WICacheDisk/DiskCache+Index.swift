#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

extension DiskCache {
    /// What the index knows about a file name.
    enum Lookup {
        /// Indexed: the file existed when last seen.
        case present
        /// Not indexed, and no process added an entry since the index was complete: a sure miss.
        case absent
        /// Not indexed, but another process may have added it: look on disk.
        case unknown
    }

    /// Looks `name` up in the index, building the index on first use. Costs no system call: the shared
    /// generation is a memory load. While it shows entries added elsewhere, each miss looks on disk (one `open`);
    /// once such misses outnumber the entries, the directory is scanned again, so the scan's cost is amortized.
    func lookup(_ name: EntryName) -> Lookup {
        let answer = state.withLock { state -> Lookup? in
            guard let index = state.index else { return nil }
            let lookup = classify(name, in: state)
            if lookup != .unknown { return lookup }
            state.staleMisses += 1
            return state.staleMisses > max(256, index.count) && state.seenGeneration != nil ? nil : .unknown
        }
        if let answer { return answer }
        rebuildIndex(onlyIfMissing: state.withLock { $0.index == nil })  // first use, or time to rescan
        return state.withLock { classify(name, in: $0) }
    }

    private func classify(_ name: EntryName, in state: State) -> Lookup {
        guard let index = state.index else { return .unknown }
        if index[name] != nil || index.obstructed.contains(name) { return .present }
        if let seen = state.seenGeneration, let generation, generation.load() == seen { return .absent }
        return .unknown
    }

    /// Runs `body` on the index, building it first when needed.
    func withIndex<T: Sendable>(_ body: (DiskIndex) -> T) -> T {
        if let result = state.withLock({ state in state.index.map(body) }) { return result }
        rebuildIndex(onlyIfMissing: true)
        return state.withLock { body($0.index ?? DiskIndex()) }
    }

    /// Scans the directory and installs a fresh index. The shared generation is read before the scan, so an entry
    /// added during it counts as possibly missing (and a miss then looks on disk). One scan at a time: threads
    /// that need the first index wait for the scan in progress instead of starting their own.
    func rebuildIndex(onlyIfMissing: Bool) {
        scanGate.lock()
        defer { scanGate.unlock() }
        if onlyIfMissing && state.withLock({ $0.index != nil }) { return }
        beginScan()
        defer { endScan() }
        let before = generation?.load()
        let scan = try? DirectoryScan(directory, staleBefore: staleTemporaryCutoff())
        var index = DiskIndex(capacity: scan?.entries.count ?? 0)
        for entry in scan?.entries ?? [] { index.set(entry.name, indexEntry(entry.status)) }
        index.obstructed = scan?.obstructed ?? []
        install(index, seen: scan == nil ? nil : before)
    }

    /// Replaces the index with a fresh one, complete for the shared generation `seen`, after replaying onto it
    /// this process's changes made since its scan began (between `beginScan` and `endScan`).
    func install(_ index: DiskIndex, seen: UInt64?) {
        state.withLock { state in
            var index = index
            for (name, entry) in state.changesDuringScans {
                if let entry { index.set(name, entry) } else { index.remove(name) }
            }
            state.index = index
            state.seenGeneration = seen
            state.staleMisses = 0
        }
    }

    /// Records what a read or a stat learnt about `name` (not logged for a scan in progress: the file was there
    /// before, so the scan sees it, and a trim may be deleting it).
    func record(_ name: EntryName, _ status: EntryStatus) {
        state.withLock { $0.index?.set(name, indexEntry(status)) }
    }

    /// Applies this process's change to `name` (an entry, or nil when it is gone) to the index, and logs it while a
    /// scan is in progress so the index that scan installs has it too.
    static func change(_ name: EntryName, _ entry: DiskIndex.Entry?, in state: inout State) {
        if let entry { state.index?.set(name, entry) } else { state.index?.remove(name) }
        if state.scans > 0 { state.changesDuringScans.append((name, entry)) }
    }

    /// A scan whose result `install` will replace the index with is starting: log changes from now on.
    func beginScan() {
        state.withLock { state in
            if state.scans == 0 { state.changesDuringScans.removeAll() }
            state.scans += 1
        }
    }

    /// The scan begun by `beginScan` is over (installed or failed).
    func endScan() {
        state.withLock { state in
            state.scans -= 1
            if state.scans == 0 { state.changesDuringScans.removeAll() }
        }
    }

    /// The index entry for a file status, per the configuration's accounting and expiry date.
    func indexEntry(_ status: EntryStatus) -> DiskIndex.Entry {
        DiskIndex.Entry(
            size: configuration.sizeAccounting == .allocated ? status.allocatedSize : status.logicalSize,
            date: configuration.expiryDate == .access ? status.accessed : status.modified)
    }

    /// Temporary files last modified before this instant belong to a writer that died.
    func staleTemporaryCutoff() -> Date {
        configuration.now().addingTimeInterval(-configuration.staleTemporaryFileAge)
    }

    // MARK: Additional read-only paths

    /// The first additional read-only directory that has `name` (from listings read once).
    func extraDirectory(containing name: EntryName) -> String? {
        let paths = configuration.additionalReadOnlyPaths
        guard !paths.isEmpty else { return nil }
        let listings =
            state.withLock { $0.extraNames }
            ?? {
                let listings = paths.map { path in
                    Set(((try? DirectoryScan(path, staleBefore: nil))?.entries ?? []).map(\.name))
                }
                state.withLock { $0.extraNames = listings }
                return listings
            }()
        return zip(paths, listings).first { $0.1.contains(name) }?.0
    }

    /// The bytes of `name` from an additional read-only path, or nil.
    func readExtra(_ name: EntryName) -> Data? {
        guard let path = extraDirectory(containing: name) else { return nil }
        return (try? EntryFiles.read(name.path(prefix: path + "/"), touch: nil))??.data
    }
}

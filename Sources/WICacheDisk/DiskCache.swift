#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Logging
import Synchronization
import WICore
#if canImport(Glibc)
import Glibc
#endif

/// The on-disk data cache: one file per key under `<root>/<name>/`, safe against crashes and shared by processes.
///
/// Writes go to a temporary file in the same directory and are renamed over the final name, so a reader (in any
/// process) sees the old bytes or the new bytes, never a mix, and a crash or `kill -9` leaves at worst a
/// temporary file, removed by a later scan. An in-memory index (file name -> size and date), built lazily from one
/// directory scan, answers misses without a system call and keeps `totalSize` O(1). Another process that adds an
/// entry bumps a counter in a shared memory-mapped file; when it moved, a miss costs one `open` to look on disk
/// until the next scan (a trim, or once such misses outnumber the entries).
/// Trims (age, then size, oldest first) take an exclusive `flock`, so one process trims at a time, and never break
/// a read in progress elsewhere (an open descriptor survives the unlink).
///
/// ```swift
/// let cache = try DiskCache(name: "images")
/// try cache.store(bytes, forKey: url.absoluteString)
/// let hit = try cache.readData(forKey: url.absoluteString)
/// ```
///
/// The `DataCaching` methods report failures as misses and dropped writes; the throwing methods report them as
/// `ImageError` with codes 3000-3099 (`.diskFull`, `.diskPermissionDenied`, `.diskReadOnly`, ...). The async
/// overloads run on the cache's own I/O pool (started with the first call, ended by `shutdown()`), never on the
/// cooperative pool.
///
/// Thread safety: every method may be called from any number of threads and processes at once.
// @unchecked Sendable: mutable state lives in `state` (a Mutex); `lockFile` and `generation` are set once in init,
// `timer` is set once in init; `trimGate` serializes trims and `scanGate` index scans within the process;
// `recentNames` is a Mutex and `temporaryNames` is Sendable.
public final class DiskCache: DataCaching, ShutdownCapable, @unchecked Sendable {
    /// The directory holding the entries.
    public let directory: String
    /// `directory` followed by "/".
    let directoryPrefix: String
    /// The settings this cache was opened with.
    public let configuration: Configuration

    struct State {
        var index: DiskIndex?
        /// The shared generation the index is known to be complete for; nil when it may miss entries for good
        /// (no shared counter: a read-only directory).
        var seenGeneration: UInt64?
        /// Misses that had to look on disk since the last scan.
        var staleMisses = 0
        /// The listings of `additionalReadOnlyPaths`, read once.
        var extraNames: [Set<EntryName>]?
        var usesSidecars: Bool
        /// A trim is queued on `trimQueue` because a store pushed the total over the size limit.
        var trimPending = false
        /// Scans (index rebuilds, trims) in progress; while there are any, this process's index changes are also
        /// logged in `changesDuringScans`, to be replayed onto the index a scan installs (it may not have seen them).
        var scans = 0
        var changesDuringScans: [(name: EntryName, entry: DiskIndex.Entry?)] = []
    }

    let state: Mutex<State>
    let generation: SharedGeneration?
    let lockFile: Int32
    let trimGate = ConditionLock()
    let scanGate = ConditionLock()
    /// The names of this cache's most recent ASCII keys (at most `recentNamesLimit`), so a read of a hot key skips
    /// the MD5; owned by the cache, so nothing is shared between caches.
    let recentNames = Mutex<[String: EntryName]>([:])
    /// Names for this cache's temporary files.
    let temporaryNames = TemporaryNames()
    /// Runs the background trims (the timer's and those a store over the size limit schedules), one at a time.
    let trimQueue = DispatchQueue(label: "wi.disk-cache.trim", qos: .utility)
    private let timer: (any DispatchSourceTimer)?
    /// Runs the async overloads.
    let ioPool = WorkerPool(name: "wi.disk", threads: 4)

    static let lockFileName = ".lock"
    static let generationFileName = ".generation"

    /// The default root: `$XDG_CACHE_HOME/WebImage`, else `~/.cache/WebImage`.
    public static var defaultRoot: String {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/WebImage" }
        return SystemFile.homeDirectory + "/.cache/WebImage"
    }

    /// Opens (creating when needed) the cache `<root>/<name>`.
    public convenience init(name: String, root: String? = nil, configuration: Configuration = .init())
        throws(ImageError)
    {
        try self.init(directory: (root ?? Self.defaultRoot) + "/" + name, configuration: configuration)
    }

    /// Opens (creating when needed) the cache in `directory`. An existing directory on a read-only file system
    /// opens for reading; writes then throw `.diskReadOnly`.
    /// Throws `.invalidArgument` when `configuration.validate()` does.
    public init(directory: String, configuration: Configuration = .init()) throws(ImageError) {
        try configuration.validate()
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.configuration = configuration
        directoryPrefix = self.directory + "/"
        try POSIX.makeDirectories(self.directory)
        lockFile = open(self.directory + "/" + Self.lockFileName, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        generation = SharedGeneration(path: self.directory + "/" + Self.generationFileName)
        let sidecars =
            configuration.extendedDataStorage == .sidecar
            || (lockFile >= 0 && !Self.supportsExtendedAttributes(fd: lockFile))
        state = Mutex(State(index: nil, seenGeneration: nil, extraNames: nil, usesSidecars: sidecars))
        let owner = WeakCache()
        let queue = trimQueue
        timer = configuration.trimInterval.map { Self.startTrimTimer(every: $0, on: queue, owner: owner) }
        owner.cache = self
    }

    /// Stops the trim timer, waits for the background trims queued so far, and ends the async overloads' threads.
    /// The synchronous methods keep working. Idempotent.
    public func shutdown() async {
        timer?.cancel()
        waitForBackgroundTrims()
        ioPool.shutdown()
    }

    deinit {
        timer?.cancel()
        if lockFile >= 0 { close(lockFile) }
    }

    /// The path the entry for `key` has (whether or not it exists).
    public func path(forKey key: String) -> String { entryName(forKey: key).path(prefix: directoryPrefix) }

    // MARK: Reading

    /// The bytes stored for `key`, from this directory or else from an additional read-only path; nil on a miss.
    /// With `expiryDate == .access`, a hit sets the entry's access date.
    public func readData(forKey key: String) throws(ImageError) -> Data? {
        let name = entryName(forKey: key)
        if lookup(name) != .absent {
            let touch = configuration.expiryDate == .access ? configuration.now() : nil
            if let (data, status) = try EntryFiles.read(name.path(prefix: directoryPrefix), touch: touch) {
                record(name, status)
                return data
            }
            state.withLock { Self.change(name, nil, in: &$0) }
        }
        return readExtra(name)
    }

    /// Whether an entry for `key` exists here or in an additional read-only path, without reading it.
    public func containsData(forKey key: String) -> Bool {
        let name = entryName(forKey: key)
        if lookup(name) != .absent {
            if let status = EntryFiles.status(name.path(prefix: directoryPrefix)) {
                record(name, status)
                return true
            }
            state.withLock { Self.change(name, nil, in: &$0) }
        }
        return extraDirectory(containing: name) != nil
    }

    /// The number of entries (from the index: no system call once it is built).
    public var totalCount: Int { withIndex { $0.count } }

    /// The bytes the entries take, counted per `sizeAccounting` (from the index).
    public var totalSize: Int64 { withIndex { $0.totalSize } }

    // MARK: Writing

    /// Stores `data` for `key`, atomically replacing any previous entry (and its extended data and HTTP cache info).
    /// When the total then exceeds `sizeLimit`, a trim is queued to run in the background (one at a time, and
    /// skipped while another process trims).
    public func store(_ data: Data, forKey key: String) throws(ImageError) {
        try store(data, httpCacheInfo: nil, forKey: key)
    }

    /// `store(_:forKey:)` with `httpCacheInfo` beside the bytes: in an extended attribute set before the entry's
    /// rename (readers see both or neither), or in a sidecar file written just after it.
    public func store(_ data: Data, httpCacheInfo: HTTPCacheInfo?, forKey key: String) throws(ImageError) {
        let name = entryName(forKey: key)
        let fileName = name.string
        let date = configuration.now()
        let sidecars = state.withLock { $0.usesSidecars }
        let prepare = sidecars ? nil : httpCacheInfo.map { HTTPAttributeWriter(bytes: $0.serialized()) }
        let status: EntryStatus
        do {
            status = try EntryFiles.write(
                data, directory: directory, name: fileName, date: date,
                durable: configuration.durableWrites, temporaryNames: temporaryNames,
                prepare: prepare)
        } catch {
            // The directory itself went away (removed by hand, or moved): recreate it once.
            guard error.code == .diskEntryNotFound else { throw error }
            try POSIX.makeDirectories(directory)
            status = try EntryFiles.write(
                data, directory: directory, name: fileName, date: date,
                durable: configuration.durableWrites, temporaryNames: temporaryNames,
                prepare: prepare)
        }
        if sidecars {
            try? EntryFiles.remove(sidecarPath(name))
            try? EntryFiles.remove(httpSidecarPath(name))
            if let httpCacheInfo { try writeHTTPSidecar(httpCacheInfo, name: name) }
        }
        let limit = configuration.sizeLimit
        let overLimit = state.withLock { state in
            if let generation {
                let before = generation.increment()
                if state.seenGeneration == before { state.seenGeneration = before &+ 1 }
            }
            Self.change(name, indexEntry(status), in: &state)
            // Without an index the total is unknown: the queued trim builds the index and checks.
            guard limit > 0, configuration.trimsWhenOverLimit, !state.trimPending,
                state.index.map({ $0.totalSize > limit }) ?? true
            else { return false }
            state.trimPending = true
            return true
        }
        if overLimit { scheduleTrim() }
    }

    /// Removes the entry for `key` (and its extended data). A missing entry is not an error.
    public func remove(forKey key: String) throws(ImageError) {
        let name = entryName(forKey: key)
        try EntryFiles.remove(name.path(prefix: directoryPrefix))
        state.withLock { Self.change(name, nil, in: &$0) }
        if state.withLock({ $0.usesSidecars }) {
            try EntryFiles.remove(sidecarPath(name))
            try EntryFiles.remove(httpSidecarPath(name))
        }
    }

    // MARK: DataCaching

    /// `readData(forKey:)`, with every failure reported as a miss (and logged as a warning unless the entry is
    /// missing).
    public func data(forKey key: String) -> Data? {
        do throws(ImageError) {
            return try readData(forKey: key)
        } catch {
            if error.code != .diskEntryNotFound { warn("a disk cache read failed", key: key, error) }
            return nil
        }
    }

    /// `store(_:forKey:)`, with a failed write dropped (and logged as a warning).
    public func setData(_ data: Data, forKey key: String) {
        do throws(ImageError) { try store(data, forKey: key) } catch {
            warn("a disk cache write failed", key: key, error)
        }
    }

    /// `store(_:httpCacheInfo:forKey:)`, with a failed write dropped (and logged as a warning).
    public func setData(_ data: Data, httpCacheInfo: HTTPCacheInfo?, forKey key: String) {
        do throws(ImageError) { try store(data, httpCacheInfo: httpCacheInfo, forKey: key) } catch {
            warn("a disk cache write failed", key: key, error)
        }
    }

    /// `setHTTPCacheInfo(_:forKey:)` (the throwing one), with a missing entry ignored and another failure logged.
    public func setHTTPCacheInfo(_ info: HTTPCacheInfo, forKey key: String) {
        do throws(ImageError) { try storeHTTPCacheInfo(info, forKey: key) } catch {
            if error.code != .diskEntryNotFound { warn("storing HTTP cache info failed", key: key, error) }
        }
    }

    /// `remove(forKey:)`, with a failure logged as a warning.
    public func removeData(forKey key: String) {
        do throws(ImageError) { try remove(forKey: key) } catch { warn("a disk cache removal failed", key: key, error) }
    }

    /// `removeAll()`, with a failure logged as a warning.
    public func removeAllData() {
        do throws(ImageError) { try removeAll() } catch { warn("clearing the disk cache failed", key: nil, error) }
    }

    /// The tier's name in `webimage_cache_lookups_total`.
    public var metricsName: String { "disk" }

    private func warn(_ message: String, key: String?, _ error: ImageError) {
        var metadata: Logger.Metadata = ["webimage.error.code": "\(error.code.rawValue)", "directory": "\(directory)"]
        if let key { metadata["webimage.key"] = "\(key)" }
        configuration.logger.warning("\(message): \(error.message)", metadata: metadata)
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WICore
#if canImport(Glibc)
import Glibc
#endif

/// What a `stat` of an entry tells the cache.
struct EntryStatus: Sendable {
    /// The logical size in bytes.
    var logicalSize: Int64
    /// The bytes the file occupies on disk (`st_blocks * 512`).
    var allocatedSize: Int64
    var modified: Date
    var accessed: Date

    init(_ status: stat) {
        logicalSize = Int64(status.st_size)
        allocatedSize = Int64(status.st_blocks) * 512
        modified = POSIX.date(status.st_mtim)
        accessed = POSIX.date(status.st_atim)
    }
}

/// Reading, writing and listing entry files with plain POSIX calls (no FileManager: it is slower and hides errno).
enum EntryFiles {
    /// The prefix of temporary files; every name that starts with "." is skipped by scans.
    static let temporaryPrefix = ".tmp-"
    /// The prefix of extended-data sidecar files.
    static let sidecarPrefix = ".ext-"
    /// The prefix of the sidecar that holds an entry's HTTP cache info where extended attributes are missing.
    static let httpSidecarPrefix = ".http-"
    /// `UTIME_OMIT` from <sys/stat.h> (a macro Swift does not import): leave this timestamp unchanged.
    static let utimeOmit = (1 << 30) - 2

    /// The whole file at `path`, or nil when there is none. With `touch`, sets its access date to that instant.
    static func read(_ path: String, touch: Date?) throws(ImageError) -> (data: Data, status: EntryStatus)? {
        // withCString lends the String's own bytes; the implicit conversion copies them into a new array.
        let fd = path.withCString { cPath in POSIX.retrying { open(cPath, O_RDONLY | O_CLOEXEC) } }
        if fd < 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw POSIX.fail("open", path)
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw POSIX.fail("fstat", path) }
        guard POSIX.isRegularFile(status) else { throw POSIX.error("read", path, errno: EISDIR) }
        // Entries are never modified in place (writers rename a new file over them), so the size is final. The
        // bytes go straight into the Data's own, uninitialized memory (no zero-fill, no copy).
        let size = Int(status.st_size)
        guard let memory = malloc(max(size, 1)) else { throw POSIX.error("read", path, errno: ENOMEM) }
        var filled = 0
        while filled < size {
            let count = POSIX.retrying { Glibc.read(fd, memory + filled, size - filled) }
            if count < 0 {
                let failure = errno
                free(memory)
                throw POSIX.error("read", path, errno: failure)
            }
            if count == 0 { break }
            filled += count
        }
        let data: Data
        if filled > 0 {
            data = Data(bytesNoCopy: memory, count: filled, deallocator: .free)
        } else {
            free(memory)
            data = Data()
        }
        if let touch {
            var times = [POSIX.timespec(touch), Glibc.timespec(tv_sec: 0, tv_nsec: utimeOmit)]
            if futimens(fd, &times) == 0 { status.st_atim = times[0] }
        }
        return (data, EntryStatus(status))
    }

    /// Writes `data` to `directory/name` atomically: a temporary file in the same directory, written, dated `date`
    /// (access and modification), given the HTTP cache info attribute by `prepare`, optionally fsync'd, then
    /// renamed over the final name.
    static func write(
        _ data: Data, directory: String, name: String, date: Date, durable: Bool,
        temporaryNames: TemporaryNames, prepare: HTTPAttributeWriter? = nil
    )
        throws(ImageError) -> EntryStatus
    {
        let temporary = directory + "/" + temporaryPrefix + temporaryNames.next()
        let fd = POSIX.retrying { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        if fd < 0 { throw POSIX.fail("create", temporary) }
        var status = stat()
        do throws(ImageError) {
            defer { close(fd) }
            let failure = data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int32 in
                var written = 0
                while written < buffer.count {
                    let count = POSIX.retrying {
                        Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
                    }
                    if count < 0 { return errno }
                    written += count
                }
                return 0
            }
            if failure != 0 { throw POSIX.error("write", temporary, errno: failure) }
            try prepare?.write(fd: fd)
            if durable && fsync(fd) != 0 { throw POSIX.fail("fsync", temporary) }
            var times = [POSIX.timespec(date), POSIX.timespec(date)]
            if futimens(fd, &times) != 0 { throw POSIX.fail("futimens", temporary) }
            if fstat(fd, &status) != 0 { throw POSIX.fail("fstat", temporary) }
        } catch {
            unlink(temporary)
            throw error
        }
        let final = directory + "/" + name
        if rename(temporary, final) != 0 {
            let failure = POSIX.fail("rename", final)
            unlink(temporary)
            throw failure
        }
        if durable { syncDirectory(directory) }
        return EntryStatus(status)
    }

    /// Flushes a directory's entries (the rename) to disk.
    static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Removes `path`; a missing file is not an error.
    static func remove(_ path: String) throws(ImageError) {
        if unlink(path) != 0 && errno != ENOENT {
            throw POSIX.fail("unlink", path)
        }
    }

    /// The status of `path` when it is a regular file; nil when missing or not a file.
    static func status(_ path: String) -> EntryStatus? {
        var status = stat()
        guard path.withCString({ stat($0, &status) }) == 0, POSIX.isRegularFile(status) else { return nil }
        return EntryStatus(status)
    }
}

/// Names for temporary files that no other writer uses: this process's id and a random tag drawn once per owner (each
/// `DiskCache` has its own), then a counter. No system call per write; nothing shared between owners.
///
/// Thread safety: `next()` may be called from any thread at once.
final class TemporaryNames: Sendable {
    private let tag: String
    private let counter = Atomic<UInt64>(0)

    init() {
        var generator = SystemRandomNumberGenerator()
        tag = String(getpid(), radix: 16) + "-" + String(generator.next() as UInt64, radix: 16) + "-"
    }

    /// A name not returned before by this owner, nor (but for a 2^-64 chance, which `O_EXCL` turns into an error)
    /// by any other.
    func next() -> String { tag + String(counter.add(1, ordering: .relaxed).oldValue, radix: 16) }
}

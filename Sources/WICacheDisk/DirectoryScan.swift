#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
#if canImport(Glibc)
import Glibc
#endif

/// One pass over a cache directory with opendir/readdir/fstatat. Names are read off the `dirent` bytes: an entry
/// the cache made costs no heap allocation (see `EntryName`).
struct DirectoryScan {
    /// Entry files (regular files whose name does not start with ".") and their status.
    var entries: [(name: EntryName, status: EntryStatus)] = []
    /// Entry names taken by something other than a regular file (a directory, a socket).
    var obstructed: Set<EntryName> = []
    /// Extended-data sidecars found, by the entry name they belong to.
    var sidecars: Set<EntryName> = []
    /// HTTP cache info sidecars found, by the entry name they belong to.
    var httpSidecars: Set<EntryName> = []
    /// Temporary files older than the grace period, removed during the scan.
    var removedTemporaryFiles = 0

    private static let sidecarPrefix = Array(EntryFiles.sidecarPrefix.utf8)
    private static let httpSidecarPrefix = Array(EntryFiles.httpSidecarPrefix.utf8)
    private static let temporaryPrefix = Array(EntryFiles.temporaryPrefix.utf8)

    /// Lists `directory`. Temporary files last modified before `staleBefore` are deleted (a writer that crashed).
    init(_ directory: String, staleBefore: Date?) throws(ImageError) {
        guard let stream = opendir(directory) else {
            if errno == ENOENT { return }
            throw POSIX.fail("opendir", directory)
        }
        defer { closedir(stream) }
        let fd = dirfd(stream)
        let staleSeconds = staleBefore.map { $0.timeIntervalSince1970 }
        while let item = readdir(stream) {
            withUnsafePointer(to: &item.pointee.d_name) { pointer in
                let cName = UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self)
                let name = UnsafeRawBufferPointer(start: cName, count: strlen(cName))
                add(name, cName, fd: fd, staleSeconds: staleSeconds)
            }
        }
    }

    private mutating func add(
        _ name: UnsafeRawBufferPointer, _ cName: UnsafePointer<CChar>, fd: Int32,
        staleSeconds: Double?
    ) {
        var status = stat()
        if name.first == UInt8(ascii: ".") {
            if name.starts(with: Self.sidecarPrefix) {
                sidecars.insert(EntryName(UnsafeRawBufferPointer(rebasing: name[Self.sidecarPrefix.count...])))
            } else if name.starts(with: Self.httpSidecarPrefix) {
                httpSidecars.insert(EntryName(UnsafeRawBufferPointer(rebasing: name[Self.httpSidecarPrefix.count...])))
            } else if let staleSeconds, name.starts(with: Self.temporaryPrefix),
                fstatat(fd, cName, &status, AT_SYMLINK_NOFOLLOW) == 0,
                Double(status.st_mtim.tv_sec) < staleSeconds, unlinkat(fd, cName, 0) == 0
            {
                removedTemporaryFiles += 1
            }
            return
        }
        guard fstatat(fd, cName, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return }
        if POSIX.isRegularFile(status) {
            entries.append((EntryName(name), EntryStatus(status)))
        } else {
            obstructed.insert(EntryName(name))
        }
    }

    /// The name of a `readdir` result.
    static func name(of item: UnsafeMutablePointer<dirent>) -> String {
        withUnsafePointer(to: &item.pointee.d_name) {
            String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
        }
    }
}

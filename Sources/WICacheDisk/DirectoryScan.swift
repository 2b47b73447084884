import Foundation
import WICore
#if canImport(Glibc)
import Glibc
#endif

/// One pass over a cache directory with opendir/readdir/fstatat.
struct DirectoryScan {
    /// Entry files (regular files whose name does not start with ".") and their status.
    var entries: [(name: String, status: EntryStatus)] = []
    /// Entry names taken by something other than a regular file (a directory, a socket).
    var obstructed: Set<String> = []
    /// Extended-data sidecars found, by the entry name they belong to.
    var sidecars: Set<String> = []
    /// Temporary files older than the grace period, removed during the scan.
    var removedTemporaryFiles = 0

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
            let name = Self.name(of: item)
            if name.utf8.first == UInt8(ascii: ".") {
                if name.hasPrefix(EntryFiles.sidecarPrefix) {
                    sidecars.insert(String(name.dropFirst(EntryFiles.sidecarPrefix.count)))
                } else if let staleSeconds, name.hasPrefix(EntryFiles.temporaryPrefix) {
                    var status = stat()
                    if fstatat(fd, name, &status, AT_SYMLINK_NOFOLLOW) == 0,
                       Double(status.st_mtim.tv_sec) < staleSeconds, unlinkat(fd, name, 0) == 0 {
                        removedTemporaryFiles += 1
                    }
                }
                continue
            }
            var status = stat()
            guard fstatat(fd, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            if POSIX.isRegularFile(status) {
                entries.append((name, EntryStatus(status)))
            } else {
                obstructed.insert(name)
            }
        }
    }

    /// The name of a `readdir` result.
    static func name(of item: UnsafeMutablePointer<dirent>) -> String {
        withUnsafePointer(to: &item.pointee.d_name) {
            String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
#if canImport(Glibc)
import Glibc
#endif

/// The one place that reads `errno` and turns it into a typed `ImageError` (codes 3000-3099).
enum POSIX {
    /// The error for a failed call `operation` on `path` with the errno value `code`.
    static func error(_ operation: String, _ path: String, errno code: Int32) -> ImageError {
        let kind: ImageError.Code =
            switch code {
            case ENOSPC, EDQUOT: .diskFull
            case EACCES, EPERM: .diskPermissionDenied
            case EROFS: .diskReadOnly
            case EISDIR: .diskEntryNotAFile
            case ENOTDIR, EEXIST: .diskInvalidDirectory
            case ENOENT: .diskEntryNotFound
            default: .diskIOFailed
            }
        let reason = String(cString: strerror(code))
        let underlying = POSIXErrorCode(rawValue: code).map { POSIXError($0) }
        return ImageError(kind, "\(operation) \(path): \(reason)", underlying: underlying)
    }

    /// Throws the typed error for the current `errno`.
    static func fail(_ operation: String, _ path: String) -> ImageError {
        error(operation, path, errno: errno)
    }

    /// Retries `body` while it fails with EINTR; returns its result.
    @inline(__always)
    static func retrying<T: BinaryInteger>(_ body: () -> T) -> T {
        while true {
            let result = body()
            if result == -1 && errno == EINTR { continue }
            return result
        }
    }

    /// A `timespec` for `date`.
    static func timespec(_ date: Date) -> Glibc.timespec {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let nanoseconds = ((date.timeIntervalSince1970 - seconds) * 1e9).rounded()
        return Glibc.timespec(tv_sec: Int(seconds), tv_nsec: min(999_999_999, Int(nanoseconds)))
    }

    /// The `Date` of a `timespec`.
    static func date(_ time: Glibc.timespec) -> Date {
        Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
    }

    /// Whether `status` describes a regular file.
    static func isRegularFile(_ status: stat) -> Bool { (status.st_mode & S_IFMT) == S_IFREG }

    /// The path without its last component, as `NSString.deletingLastPathComponent` gives it: "/a/b/" -> "/a",
    /// "/a" -> "/", "a" -> "".
    static func parent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The last component of the path, as `NSString.lastPathComponent` gives it: "/a/b/" -> "b", "/" -> "/".
    static func lastComponent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    private static func withoutTrailingSlashes(_ path: String) -> Substring {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return trimmed
    }

    /// Creates `path` and its missing parents as directories (mode 0755).
    static func makeDirectories(_ path: String) throws(ImageError) {
        var status = stat()
        if stat(path, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFDIR else {
                throw error("mkdir", path, errno: ENOTDIR)
            }
            return
        }
        let parent = parent(of: path)
        if !parent.isEmpty && parent != path { try makeDirectories(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST { throw fail("mkdir", path) }
    }
}

import WICore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `--file-root`: source paths resolved inside one folder and never out of it.
///
/// A path is refused (400) when it is absolute, has a `..` or empty component, or a NUL; it is resolved with
/// every symbolic link followed (`realpath`), and refused when the result is not inside the folder's own real
/// path; a path that names nothing, or no regular file, is a 404. What the service then opens is the resolved
/// path. (The folder's writers are trusted: a link swapped between the check and the open is not guarded.)
///
/// Thread safety: an immutable value.
package struct FileRoot: Sendable {
    /// The folder's real path, with a trailing `/`.
    let root: String

    /// Throws `.invalidArgument` when `folder` is not a readable folder.
    init(_ folder: String) throws(ImageError) {
        guard let real = Self.realPath(folder), Self.isDirectory(real) else {
            throw ImageError(.invalidArgument, "file-root must be a folder, got \(folder)")
        }
        root = real.hasSuffix("/") ? real : real + "/"
    }

    /// The `file:` URL of `path` inside the folder.
    func resolve(_ path: String) throws(ServeError) -> URL {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\0"),
            components.allSatisfy({ !$0.isEmpty && $0 != ".." && $0 != "." })
        else {
            throw ServeError(.badRequest, "bad image path")
        }
        guard let real = Self.realPath(root + path) else { throw ServeError(.notFound, "the source was not found") }
        guard real.hasPrefix(root) else { throw ServeError(.badRequest, "bad image path") }
        guard Self.isRegularFile(real) else { throw ServeError(.notFound, "the source was not found") }
        return URL(fileURLWithPath: real)
    }

    /// `path` (absolute) resolved as `resolve(_:)` does when it lies inside the folder; 403 when it does not.
    func resolve(absolute path: String) throws(ServeError) -> URL {
        guard path.hasPrefix(root) else { throw ServeError(.forbidden, "this source is not allowed") }
        return try resolve(String(path.dropFirst(root.count)))
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}

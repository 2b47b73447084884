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
    /// Moves a cache directory, for example from an old location to a new one, before opening it.
    ///
    /// When `destination` does not exist, the directory is renamed (parents are created). When it exists, the
    /// entries of `source` are moved into it (replacing same-named ones) and `source` is removed. A missing
    /// `source` is not an error. Do this while no process uses `source`.
    ///
    /// Thread safety: a static function; run it before any `DiskCache` opens either directory.
    public static func moveDirectory(from source: String, to destination: String) throws(ImageError) {
        guard source != destination else { return }
        var status = stat()
        guard stat(source, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return }
        if stat(destination, &status) != 0 {
            try POSIX.makeDirectories(POSIX.parent(of: destination))
            if rename(source, destination) == 0 { return }
            guard errno == EXDEV else { throw POSIX.fail("rename", destination) }
            try POSIX.makeDirectories(destination)
        } else if (status.st_mode & S_IFMT) != S_IFDIR {
            throw POSIX.error("move", destination, errno: ENOTDIR)
        }
        let scan = try DirectoryScan(source, staleBefore: nil)
        for entry in scan.entries {
            try moveFile(entry.name.path(prefix: source + "/"), to: entry.name.path(prefix: destination + "/"))
        }
        for name in scan.sidecars {
            let sidecar = "/" + EntryFiles.sidecarPrefix + name.string
            try? moveFile(source + sidecar, to: destination + sidecar)
        }
        for name in scan.httpSidecars {
            let sidecar = "/" + EntryFiles.httpSidecarPrefix + name.string
            try? moveFile(source + sidecar, to: destination + sidecar)
        }
        try removeTree(source)
    }

    /// Renames `source` to `destination`, copying when they are on different file systems.
    private static func moveFile(_ source: String, to destination: String) throws(ImageError) {
        if rename(source, destination) == 0 { return }
        guard errno == EXDEV else { throw POSIX.fail("rename", destination) }
        guard let (data, status) = try EntryFiles.read(source, touch: nil) else { return }
        let directory = POSIX.parent(of: destination)
        _ = try EntryFiles.write(
            data, directory: directory, name: POSIX.lastComponent(of: destination),
            date: status.modified, durable: false, temporaryNames: TemporaryNames())
        try EntryFiles.remove(source)
    }

    /// Removes what is left of a moved cache directory (its lock, generation and temporary files).
    private static func removeTree(_ path: String) throws(ImageError) {
        guard let stream = opendir(path) else { throw POSIX.fail("opendir", path) }
        var names: [String] = []
        while let item = readdir(stream) {
            let name = DirectoryScan.name(of: item)
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(stream)
        for name in names { try EntryFiles.remove(path + "/" + name) }
        if rmdir(path) != 0 { throw POSIX.fail("rmdir", path) }
    }
}

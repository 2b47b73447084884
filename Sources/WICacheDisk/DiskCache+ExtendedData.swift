#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
private import CXattr
#if canImport(Glibc)
import Glibc
#endif

extension DiskCache {
    /// The extended attribute that holds extended data.
    static let extendedAttributeName = "user.webimage.extended"

    /// Extra bytes stored beside the entry for `key` (SDWebImage keeps an image's extended object there), or nil.
    public func extendedData(forKey key: String) -> Data? {
        attribute(Self.extendedAttributeName, sidecar: sidecarPath, forKey: key)
    }

    /// Stores `data` beside the entry for `key`; nil removes it. Uses a `user.` extended attribute (about 4 KB at
    /// most on ext4) or, where the file system has none, a hidden sidecar file. Throws `.diskEntryNotFound` when
    /// there is no entry; writing the entry again drops its extended data.
    public func setExtendedData(_ data: Data?, forKey key: String) throws(ImageError) {
        try setAttribute(Self.extendedAttributeName, sidecar: sidecarPath, data, forKey: key)
    }

    // MARK: HTTP cache info

    /// The extended attribute that holds the HTTP cache info (apart from the app's extended data).
    static let httpAttributeName = "user.webimage.http"

    /// The HTTP validators and freshness stored with the entry for `key`, or nil (none, or unreadable).
    public func httpCacheInfo(forKey key: String) -> HTTPCacheInfo? {
        attribute(Self.httpAttributeName, sidecar: httpSidecarPath, forKey: key).flatMap(
            HTTPCacheInfo.init(serialized:))
    }

    /// Replaces the HTTP cache info of the entry for `key` (a 304 renewed it), keeping its bytes and date. Throws
    /// `.diskEntryNotFound` when there is no entry.
    public func storeHTTPCacheInfo(_ info: HTTPCacheInfo, forKey key: String) throws(ImageError) {
        try setAttribute(Self.httpAttributeName, sidecar: httpSidecarPath, info.serialized(), forKey: key)
    }

    /// Writes the HTTP sidecar of entry `name` (file systems without extended attributes).
    func writeHTTPSidecar(_ info: HTTPCacheInfo, name: EntryName) throws(ImageError) {
        _ = try EntryFiles.write(
            info.serialized(), directory: directory, name: EntryFiles.httpSidecarPrefix + name.string,
            date: configuration.now(), durable: configuration.durableWrites,
            temporaryNames: temporaryNames)
    }

    /// The HTTP sidecar file of entry `name`.
    func httpSidecarPath(_ name: EntryName) -> String {
        name.path(prefix: directoryPrefix + EntryFiles.httpSidecarPrefix)
    }

    // MARK: Attributes

    /// The bytes of attribute `attribute` (or of the `sidecar` file) of the entry for `key`, or nil.
    private func attribute(_ attribute: String, sidecar: (EntryName) -> String, forKey key: String) -> Data? {
        let name = entryName(forKey: key)
        if state.withLock({ $0.usesSidecars }) {
            return try? EntryFiles.read(sidecar(name), touch: nil)?.data
        }
        let path = name.path(prefix: directoryPrefix)
        // One call for the usual small value (HTTP cache info is a few hundred bytes; every disk hit reads it);
        // a larger one is sized first.
        var data = Data(count: 1024)
        var read = data.withUnsafeMutableBytes { getxattr(path, attribute, $0.baseAddress, $0.count) }
        if read < 0 && errno == ERANGE {
            let size = getxattr(path, attribute, nil, 0)
            guard size >= 0 else { return nil }
            data = Data(count: size)
            read = data.withUnsafeMutableBytes { getxattr(path, attribute, $0.baseAddress, size) }
        }
        guard read >= 0 else { return nil }
        data.count = read
        return data
    }

    /// Sets (nil: removes) attribute `attribute` of the entry for `key`, or its `sidecar` file where the file
    /// system has no extended attributes. Throws `.diskEntryNotFound` when there is no entry.
    private func setAttribute(
        _ attribute: String, sidecar: (EntryName) -> String, _ data: Data?,
        forKey key: String
    ) throws(ImageError) {
        let name = entryName(forKey: key)
        let path = name.path(prefix: directoryPrefix)
        guard EntryFiles.status(path) != nil else { throw POSIX.error("extended data", path, errno: ENOENT) }
        if !state.withLock({ $0.usesSidecars }) {
            let result: Int32 =
                if let data {
                    data.withUnsafeBytes { setxattr(path, attribute, $0.baseAddress, $0.count, 0) }
                } else {
                    removexattr(path, attribute)
                }
            if result == 0 || (data == nil && errno == ENODATA) { return }
            guard errno == ENOTSUP || errno == EOPNOTSUPP else { throw POSIX.fail("setxattr", path) }
            state.withLock { $0.usesSidecars = true }
        }
        let file = sidecar(name)
        if let data {
            let slash = file.lastIndex(of: "/").map { file.index(after: $0) } ?? file.startIndex
            _ = try EntryFiles.write(
                data, directory: directory, name: String(file[slash...]), date: configuration.now(),
                durable: configuration.durableWrites, temporaryNames: temporaryNames)
        } else {
            try EntryFiles.remove(file)
        }
    }

    /// The sidecar file of entry `name`.
    func sidecarPath(_ name: EntryName) -> String { name.path(prefix: directoryPrefix + EntryFiles.sidecarPrefix) }

    /// Whether the file system of `fd` stores `user.` extended attributes (probed once, on the lock file).
    static func supportsExtendedAttributes(fd: Int32) -> Bool {
        let probe = "user.webimage.probe"
        if fsetxattr(fd, probe, "1", 1, 0) == 0 {
            fremovexattr(fd, probe)
            return true
        }
        return errno != ENOTSUP && errno != EOPNOTSUPP
    }
}

/// Sets the HTTP cache info attribute on a new entry's open file, before its rename.
struct HTTPAttributeWriter {
    let bytes: Data

    /// A file system that turns out to have no extended attributes keeps the entry without the info.
    func write(fd: Int32) throws(ImageError) {
        let result = bytes.withUnsafeBytes { fsetxattr(fd, DiskCache.httpAttributeName, $0.baseAddress, $0.count, 0) }
        if result != 0 && errno != ENOTSUP && errno != EOPNOTSUPP {
            throw POSIX.fail("fsetxattr", DiskCache.httpAttributeName)
        }
    }
}

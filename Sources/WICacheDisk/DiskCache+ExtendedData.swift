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
        let name = entryName(forKey: key)
        if state.withLock({ $0.usesSidecars }) {
            return try? EntryFiles.read(sidecarPath(name), touch: nil)?.data
        }
        let path = name.path(prefix: directoryPrefix)
        let size = getxattr(path, Self.extendedAttributeName, nil, 0)
        guard size >= 0 else { return nil }
        var data = Data(count: size)
        let read = data.withUnsafeMutableBytes { getxattr(path, Self.extendedAttributeName, $0.baseAddress, size) }
        guard read >= 0 else { return nil }
        data.count = read
        return data
    }

    /// Stores `data` beside the entry for `key`; nil removes it. Uses a `user.` extended attribute (about 4 KB at
    /// most on ext4) or, where the file system has none, a hidden sidecar file. Throws `.diskEntryNotFound` when
    /// there is no entry; writing the entry again drops its extended data.
    public func setExtendedData(_ data: Data?, forKey key: String) throws(ImageError) {
        let name = entryName(forKey: key)
        let path = name.path(prefix: directoryPrefix)
        guard EntryFiles.status(path) != nil else { throw POSIX.error("extended data", path, errno: ENOENT) }
        if !state.withLock({ $0.usesSidecars }) {
            let result: Int32 = if let data {
                data.withUnsafeBytes { setxattr(path, Self.extendedAttributeName, $0.baseAddress, $0.count, 0) }
            } else {
                removexattr(path, Self.extendedAttributeName)
            }
            if result == 0 || (data == nil && errno == ENODATA) { return }
            guard errno == ENOTSUP || errno == EOPNOTSUPP else { throw POSIX.fail("setxattr", path) }
            state.withLock { $0.usesSidecars = true }
        }
        if let data {
            _ = try EntryFiles.write(data, directory: directory, name: EntryFiles.sidecarPrefix + name.string,
                                     date: configuration.now(), durable: configuration.durableWrites,
                                     temporaryNames: temporaryNames)
        } else {
            try EntryFiles.remove(sidecarPath(name))
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

import Foundation
import Testing
@testable import WICacheDisk
import WICore
#if canImport(Glibc)
import Glibc
#endif

@Suite(.serialized) struct ErrorTests {
    @Test func errnoValuesMapToTypedCodes() {
        #expect(POSIX.error("write", "/x", errno: ENOSPC).code == .diskFull)
        #expect(POSIX.error("write", "/x", errno: EDQUOT).code == .diskFull)
        #expect(POSIX.error("open", "/x", errno: EACCES).code == .diskPermissionDenied)
        #expect(POSIX.error("open", "/x", errno: EPERM).code == .diskPermissionDenied)
        #expect(POSIX.error("open", "/x", errno: EROFS).code == .diskReadOnly)
        #expect(POSIX.error("rename", "/x", errno: EISDIR).code == .diskEntryNotAFile)
        #expect(POSIX.error("open", "/x", errno: EIO).code == .diskIOFailed)
        let error = POSIX.error("write", "/cache/abc", errno: ENOSPC)
        #expect(error.message == "write /cache/abc: No space left on device")
        #expect((error.underlying as? POSIXError)?.code == .ENOSPC)
        #expect(ImageError.Code.diskFull.rawValue == 3001)
    }

    @Test func anEntryReplacedByADirectory() throws {
        let root = TestDirectory()
        let cache = try DiskCache(directory: root.path, configuration: .testing())
        try cache.store(Data([1]), forKey: "k")
        try FileManager.default.removeItem(atPath: cache.path(forKey: "k"))
        try FileManager.default.createDirectory(atPath: cache.path(forKey: "k"), withIntermediateDirectories: false)
        // Whether the cache indexed the entry before or discovers the directory in its first scan.
        let fresh = try DiskCache(directory: root.path, configuration: .testing())
        #expect(fresh.totalCount == 0)
        let freshError = #expect(throws: ImageError.self) { try fresh.readData(forKey: "k") }
        #expect(freshError?.code == .diskEntryNotAFile)
        let readError = #expect(throws: ImageError.self) { try cache.readData(forKey: "k") }
        #expect(readError?.code == .diskEntryNotAFile)
        let writeError = #expect(throws: ImageError.self) { try cache.store(Data([2]), forKey: "k") }
        #expect(writeError?.code == .diskEntryNotAFile)
        #expect(cache.data(forKey: "k") == nil)  // DataCaching: a miss, a dropped write
        cache.setData(Data([3]), forKey: "k")
        #expect(!cache.containsData(forKey: "k"))
        #expect(root.names().filter { $0.hasPrefix(".tmp-") }.isEmpty)
        #expect(cache.totalCount == 0)
    }

    @Test func aRootThatIsAFileIsRefused() throws {
        let root = TestDirectory()
        #expect(FileManager.default.createFile(atPath: root("file"), contents: Data([1])))
        let error = #expect(throws: ImageError.self) { try DiskCache(directory: root("file/cache")) }
        #expect(error?.code == .diskInvalidDirectory)
    }

    @Test(.enabled(if: Tmpfs.available, "needs root to mount a tmpfs"))
    func aFullDiskThrowsDiskFullAndLeavesNoTemporaryFile() throws {
        let mountPoint = TestDirectory()
        #expect(Tmpfs.mount(mountPoint.path, options: "size=64k"))
        defer { Tmpfs.unmount(mountPoint.path) }
        let cache = try DiskCache(directory: mountPoint.path, configuration: .testing())
        try cache.store(Data(count: 8_000), forKey: "small")
        let error = #expect(throws: ImageError.self) { try cache.store(Data(count: 200_000), forKey: "big") }
        #expect(error?.code == .diskFull)
        #expect(mountPoint.names().filter { $0.hasPrefix(".tmp-") }.isEmpty)
        cache.setData(Data(count: 200_000), forKey: "big")  // DataCaching: dropped, no crash
        #expect(!cache.containsData(forKey: "big"))
        #expect(try cache.readData(forKey: "small") == Data(count: 8_000))
        #expect(cache.totalCount == 1)
    }

    @Test(.enabled(if: Tmpfs.available, "needs root to mount a tmpfs"))
    func aReadOnlyFileSystemStillReads() throws {
        let mountPoint = TestDirectory()
        #expect(Tmpfs.mount(mountPoint.path, options: "size=64k"))
        defer { Tmpfs.unmount(mountPoint.path) }
        do {  // the writer's lock file and shared counter must be closed before the remount
            let writer = try DiskCache(name: "c", root: mountPoint.path, configuration: .testing())
            try writer.store(Data([42]), forKey: "k")
        }
        #expect(Tmpfs.remount(mountPoint.path, options: "ro"))
        let cache = try DiskCache(name: "c", root: mountPoint.path, configuration: .testing())
        #expect(try cache.readData(forKey: "k") == Data([42]))
        #expect(try cache.readData(forKey: "other") == nil)
        let error = #expect(throws: ImageError.self) { try cache.store(Data([1]), forKey: "new") }
        #expect(error?.code == .diskReadOnly)
        let removeError = #expect(throws: ImageError.self) { try cache.remove(forKey: "k") }
        #expect(removeError?.code == .diskReadOnly)
        #expect(try cache.readData(forKey: "k") == Data([42]))
    }
}

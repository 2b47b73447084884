import Foundation
import Testing
import WICacheDisk
import WICore

@Suite struct ExtendedDataTests {
    @Test(arguments: [DiskCache.ExtendedDataStorage.automatic, .sidecar])
    func roundTripAndRemoval(storage: DiskCache.ExtendedDataStorage) throws {
        let root = TestDirectory()
        var configuration = DiskCache.Configuration.testing()
        configuration.extendedDataStorage = storage
        let cache = try DiskCache(directory: root.path, configuration: configuration)
        try cache.store(Data([1, 2, 3]), forKey: "k")
        #expect(cache.extendedData(forKey: "k") == nil)
        let extended = Data("{\"Test\":\"Object\"}".utf8)
        try cache.setExtendedData(extended, forKey: "k")
        #expect(cache.extendedData(forKey: "k") == extended)
        #expect(try cache.readData(forKey: "k") == Data([1, 2, 3]))   // the entry itself is unchanged
        #expect(cache.totalSize == 3)
        let sidecar = ".ext-" + DiskCache.fileName(forKey: "k")
        #expect(root.names().contains(sidecar) == (storage == .sidecar))
        try cache.setExtendedData(nil, forKey: "k")
        #expect(cache.extendedData(forKey: "k") == nil)
        try cache.setExtendedData(nil, forKey: "k")   // removing twice is fine
        #expect(!root.names().contains(sidecar))
        // Rewriting the entry drops its extended data; removing the entry removes it too.
        try cache.setExtendedData(extended, forKey: "k")
        try cache.store(Data([4]), forKey: "k")
        #expect(cache.extendedData(forKey: "k") == nil)
        try cache.setExtendedData(extended, forKey: "k")
        try cache.remove(forKey: "k")
        #expect(cache.extendedData(forKey: "k") == nil)
        #expect(root.names() == [".generation", ".lock"])
    }

    /// ramfs has no `user.` extended attributes (EOPNOTSUPP): the automatic storage falls back to sidecars.
    @Test(.enabled(if: Tmpfs.available, "needs root to mount a ramfs"))
    func fileSystemsWithoutExtendedAttributesUseSidecars() throws {
        let mountPoint = TestDirectory()
        #expect(Tmpfs.mount(mountPoint.path, options: "size=1m", type: "ramfs"))
        defer { Tmpfs.unmount(mountPoint.path) }
        let cache = try DiskCache(directory: mountPoint.path, configuration: .testing())
        try cache.store(Data([1]), forKey: "k")
        try cache.setExtendedData(Data([9, 9]), forKey: "k")
        #expect(cache.extendedData(forKey: "k") == Data([9, 9]))
        #expect(mountPoint.names().contains(".ext-" + DiskCache.fileName(forKey: "k")))
        try cache.setExtendedData(nil, forKey: "k")
        #expect(cache.extendedData(forKey: "k") == nil)
        #expect(mountPoint.names() == [".generation", ".lock", DiskCache.fileName(forKey: "k")])
    }

    @Test func needsAnEntry() throws {
        let root = TestDirectory()
        let cache = try DiskCache(directory: root.path, configuration: .testing())
        let error = #expect(throws: ImageError.self) { try cache.setExtendedData(Data([1]), forKey: "missing") }
        #expect(error?.code == .diskEntryNotFound)
    }

    @Test func orphanedSidecarsGoAtTheNextTrim() throws {
        let root = TestDirectory()
        var configuration = DiskCache.Configuration.testing()
        configuration.extendedDataStorage = .sidecar
        let cache = try DiskCache(directory: root.path, configuration: configuration)
        try cache.store(Data([1]), forKey: "k")
        try cache.setExtendedData(Data([2]), forKey: "k")
        try FileManager.default.removeItem(atPath: cache.path(forKey: "k"))   // another process removed the entry
        try cache.removeExpired()
        #expect(root.names() == [".generation", ".lock"])
    }
}

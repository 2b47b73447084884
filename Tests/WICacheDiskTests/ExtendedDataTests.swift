import Foundation
import Testing
import WICacheDisk
import WICore

@Suite struct ExtendedDataTests {
    /// A cache in a new folder that keeps extended data as `storage` says.
    static func cache(_ storage: DiskCache.ExtendedDataStorage) throws -> (TestDirectory, DiskCache) {
        let root = TestDirectory()
        var configuration = DiskCache.Configuration.testing()
        configuration.extendedDataStorage = storage
        return (root, try DiskCache(directory: root.path, configuration: configuration))
    }

    @Test(arguments: [DiskCache.ExtendedDataStorage.automatic, .sidecar])
    func roundTripAndRemoval(storage: DiskCache.ExtendedDataStorage) throws {
        let (root, cache) = try Self.cache(storage)
        try cache.store(Data([1, 2, 3]), forKey: "k")
        #expect(cache.extendedData(forKey: "k") == nil)
        let extended = Data("{\"Test\":\"Object\"}".utf8)
        try cache.setExtendedData(extended, forKey: "k")
        #expect(cache.extendedData(forKey: "k") == extended)
        #expect(try cache.readData(forKey: "k") == Data([1, 2, 3]))  // the entry itself is unchanged
        #expect(cache.totalSize == 3)
        let sidecar = ".ext-" + DiskCache.fileName(forKey: "k")
        #expect(root.names().contains(sidecar) == (storage == .sidecar))
        let large = Data((0..<3000).map { UInt8($0 & 0xFF) })  // more than one read's first buffer
        try cache.setExtendedData(large, forKey: "k")
        #expect(cache.extendedData(forKey: "k") == large)
        try cache.setExtendedData(nil, forKey: "k")
        #expect(cache.extendedData(forKey: "k") == nil)
        try cache.setExtendedData(nil, forKey: "k")  // removing twice is fine
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

    /// HTTP cache info lives apart from the app's extended data: written with the entry, replaced without touching
    /// the bytes, dropped when the entry is rewritten or removed, and read back by a new cache on the folder.
    @Test(arguments: [DiskCache.ExtendedDataStorage.automatic, .sidecar])
    func httpCacheInfoRoundTrip(storage: DiskCache.ExtendedDataStorage) throws {
        let (root, cache) = try Self.cache(storage)
        let info = HTTPCacheInfo(
            etag: "\"v1\"", lastModified: "Thu, 05 Nov 2026 08:49:37 GMT",
            date: Date(timeIntervalSince1970: 1_800_000_000), freshnessLifetime: 60)
        cache.setData(Data([1, 2, 3]), httpCacheInfo: info, forKey: "k")
        try cache.setExtendedData(Data([7]), forKey: "k")
        #expect(cache.httpCacheInfo(forKey: "k") == info)
        #expect(cache.extendedData(forKey: "k") == Data([7]))
        #expect(
            try DiskCache(directory: root.path, configuration: cache.configuration).httpCacheInfo(forKey: "k") == info)
        let sidecar = ".http-" + DiskCache.fileName(forKey: "k")
        #expect(root.names().contains(sidecar) == (storage == .sidecar))
        var renewed = info
        renewed.date = info.date.addingTimeInterval(30)
        cache.setHTTPCacheInfo(renewed, forKey: "k")
        #expect(cache.httpCacheInfo(forKey: "k") == renewed)
        #expect(try cache.readData(forKey: "k") == Data([1, 2, 3]) && cache.totalSize == 3)
        cache.setHTTPCacheInfo(renewed, forKey: "missing")  // no entry: nothing written
        #expect(cache.httpCacheInfo(forKey: "missing") == nil)
        // Rewriting without info drops it; removing the entry removes everything beside it.
        cache.setData(Data([4]), forKey: "k")
        #expect(cache.httpCacheInfo(forKey: "k") == nil)
        cache.setData(Data([5]), httpCacheInfo: info, forKey: "k")
        try cache.remove(forKey: "k")
        #expect(cache.httpCacheInfo(forKey: "k") == nil)
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
        try FileManager.default.removeItem(atPath: cache.path(forKey: "k"))  // another process removed the entry
        try cache.removeExpired()
        #expect(root.names() == [".generation", ".lock"])
    }
}

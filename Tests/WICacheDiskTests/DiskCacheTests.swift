import Foundation
import Testing
import WICacheDisk
import WICore

@Suite struct DiskCacheTests {
    @Test func storeReadContainsRemove() throws {
        let root = TestDirectory()
        let cache = try DiskCache(name: "images", root: root.path, configuration: .testing())
        #expect(cache.directory == root("images"))
        let key = "https://example.com/a.png"
        #expect(try cache.readData(forKey: key) == nil)
        #expect(!cache.containsData(forKey: key))
        try cache.store(Data([1, 2, 3]), forKey: key)
        #expect(try cache.readData(forKey: key) == Data([1, 2, 3]))
        #expect(cache.containsData(forKey: key))
        #expect(cache.path(forKey: key) == root("images") + "/" + DiskCache.fileName(forKey: key))
        #expect(FileManager.default.contents(atPath: cache.path(forKey: key)) == Data([1, 2, 3]))
        try cache.store(Data([9]), forKey: key)  // replaces
        #expect(try cache.readData(forKey: key) == Data([9]))
        #expect(cache.totalCount == 1)
        #expect(cache.totalSize == 1)
        try cache.remove(forKey: key)
        #expect(try cache.readData(forKey: key) == nil)
        #expect(!cache.containsData(forKey: key))
        #expect(cache.totalCount == 0)
        try cache.remove(forKey: key)  // removing a missing entry is fine
    }

    @Test func totalsFollowEveryChangeAndSurviveReopening() throws {
        let root = TestDirectory()
        let cache = try DiskCache(directory: root.path, configuration: .testing())
        for index in 0..<10 { try cache.store(Data(count: index * 100), forKey: "key\(index)") }
        #expect(cache.totalCount == 10)
        #expect(cache.totalSize == 4500)
        try cache.remove(forKey: "key9")
        #expect(cache.totalSize == 3600)
        let reopened = try DiskCache(directory: root.path, configuration: .testing())
        #expect(reopened.totalCount == 9)
        #expect(reopened.totalSize == 3600)
        #expect(try reopened.readData(forKey: "key3") == Data(count: 300))
        // Allocated accounting counts whole blocks (4 KB on ext4 and tmpfs) for the same files.
        var allocated = DiskCache.Configuration.testing()
        allocated.sizeAccounting = .allocated
        let blocks = try DiskCache(directory: root.path, configuration: allocated)
        #expect(blocks.totalSize == 8 * 4096)  // "key0" is empty and occupies no block
    }

    @Test func removeAllEmptiesTheDirectoryButKeepsItsBookkeeping() throws {
        let root = TestDirectory()
        let cache = try DiskCache(directory: root.path, configuration: .testing())
        for index in 0..<5 { try cache.store(Data([UInt8(index)]), forKey: "\(index).jpg") }
        try cache.removeAll()
        #expect(cache.totalCount == 0)
        #expect(cache.totalSize == 0)
        #expect(root.names() == [".generation", ".lock"])
        #expect(try cache.readData(forKey: "1.jpg") == nil)
        try cache.store(Data([7]), forKey: "1.jpg")
        #expect(try cache.readData(forKey: "1.jpg") == Data([7]))
    }

    @Test func dataCachingConformanceAndAsyncForms() async throws {
        let root = TestDirectory()
        let cache = try DiskCache(directory: root.path, configuration: .testing())
        let tier: any DataCaching = cache
        tier.setData(Data("hello".utf8), forKey: "k")
        #expect(tier.data(forKey: "k") == Data("hello".utf8))
        #expect(tier.containsData(forKey: "k"))
        tier.removeData(forKey: "k")
        #expect(tier.data(forKey: "k") == nil)
        try await cache.store(Data("async".utf8), forKey: "a")
        #expect(try await cache.readData(forKey: "a") == Data("async".utf8))
        #expect(await cache.containsData(forKey: "a"))
        try await cache.remove(forKey: "a")
        #expect(await !cache.containsData(forKey: "a"))
        try await cache.store(Data("b".utf8), forKey: "b")
        try await cache.removeAll()
        #expect(cache.totalCount == 0)
        tier.setData(Data("x".utf8), forKey: "x")
        tier.removeAllData()
        #expect(cache.totalCount == 0)
    }

    @Test func directoryRemovedBehindTheCacheIsRecreatedOnWrite() throws {
        let root = TestDirectory()
        let cache = try DiskCache(name: "ns", root: root.path, configuration: .testing())
        try cache.store(Data([1]), forKey: "a")
        try FileManager.default.removeItem(atPath: root("ns"))
        #expect(try cache.readData(forKey: "a") == nil)
        try cache.store(Data([2]), forKey: "b")
        #expect(try cache.readData(forKey: "b") == Data([2]))
    }

    @Test func manyThreadsAtOnce() async throws {
        let root = TestDirectory()
        let cache = try DiskCache(directory: root.path, configuration: .testing())
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for step in 0..<50 {
                        let key = "k\((worker * 7 + step) % 20)"
                        cache.setData(Data(repeating: UInt8(step), count: 100 + step), forKey: key)
                        if let data = cache.data(forKey: key) {
                            #expect(data.count >= 100 && data.allSatisfy { $0 == data[data.startIndex] })
                        }
                    }
                }
            }
        }
        let names = root.names().filter { !$0.hasPrefix(".") }
        #expect(cache.totalCount == 20)
        #expect(names.count == 20)
    }
}

import Foundation
import Testing
import WICacheDisk
import WICore
import WITestSupport

/// The disk cache as a data tier of WICore's `TieredImageCache`, the way the pipeline uses it.
@Suite struct TieredCacheTests {
    @Test func storesQueriesAndDropsUndecodableEntries() async throws {
        let root = TestDirectory()
        let disk = try DiskCache(directory: root.path, configuration: .testing())
        let coder = MockCoder(magic: "MOCK", marker: 7)
        let cache = TieredImageCache(memory: nil, dataTiers: [disk], coders: coder)
        await cache.store(image: nil, data: Data("MOCK-bytes".utf8), key: "good", cacheType: .all, context: .init())
        #expect(try await disk.readData(forKey: "good") == Data("MOCK-bytes".utf8))
        let hit = await cache.query(key: "good", options: [], context: .init(), cacheType: .all)
        #expect(hit?.cacheType == .disk)
        #expect(hit?.data == Data("MOCK-bytes".utf8))
        #expect(hit?.image?.pixels.packedBytes() == [7, 0, 0, 255])
        #expect(await cache.contains(key: "good", cacheType: .all) == .disk)

        try await disk.store(Data("JUNK".utf8), forKey: "bad")
        let failing = MockCoder(magic: "MOCK", marker: 7, failure: ImageError(.badImageData, "not an image"))
        let strict = TieredImageCache(memory: nil, dataTiers: [disk], coders: failing)
        #expect(await strict.query(key: "bad", options: [], context: .init(), cacheType: .all) == nil)
        #expect(await !disk.containsData(forKey: "bad"))   // removed after it failed to decode

        await cache.clear(cacheType: .all)
        #expect(disk.totalCount == 0)
    }
}

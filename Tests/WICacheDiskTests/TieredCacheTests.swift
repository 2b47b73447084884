import Foundation
import Testing
@testable import WICacheDisk
import WICore
import WITestSupport

/// The disk cache as a data tier of WICore's `TieredImageCache`, the way the pipeline uses it.
@Suite struct TieredCacheTests {
    @Test func storesAndQueriesBytesAndAShutdownEndsThePools() async throws {
        let root = TestDirectory()
        let disk = try DiskCache(directory: root.path, configuration: .testing())
        let coder = MockCoder(magic: "MOCK", marker: 7)
        let cache = TieredImageCache(memory: nil, dataTiers: [disk], coders: coder)
        await cache.store(image: nil, data: Data("MOCK-bytes".utf8), key: "good", cacheType: .all, context: .init())
        #expect(try await disk.readData(forKey: "good") == Data("MOCK-bytes".utf8))
        let hit = await cache.query(key: "good", options: [], context: .init(), cacheType: .all)
        #expect(hit?.cacheType == .disk)
        #expect(hit?.data == Data("MOCK-bytes".utf8))
        #expect(hit?.image == nil)  // the manager decodes, in its shared decode stage
        #expect(coder.decodeCount == 0)
        #expect(await cache.contains(key: "good", cacheType: .all) == .disk)

        // An image stored without bytes is encoded for the data tier.
        let image = try coder.decode(coder.data(width: 3, height: 2), options: .init())
        await cache.store(image: image, data: nil, key: "encoded", cacheType: .disk, context: .init())
        #expect(try await disk.readData(forKey: "encoded") == coder.data(width: 3, height: 2))

        await cache.clear(cacheType: .all)
        #expect(disk.totalCount == 0)
        await cache.shutdown()  // ends the cache's pool and the disk cache's
        #expect(disk.ioPool.isShuttingDown)
        #expect(disk.data(forKey: "good") == nil)  // the synchronous methods keep working
    }
}

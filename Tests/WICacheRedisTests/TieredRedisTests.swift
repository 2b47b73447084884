import Foundation
import Testing
import WICacheDisk
import WICacheRedis
import WICore
import WITestSupport

/// Redis as the third tier of WICore's `TieredImageCache`: memory -> disk -> Redis.
@Suite struct TieredRedisTests {
    @Test func aRedisHitIsPromotedToDisk() async throws {
        let server = try RedisServer()
        let directory = NSTemporaryDirectory() + "wi-redis-tests-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var diskConfiguration = DiskCache.Configuration()
        diskConfiguration.trimInterval = nil
        let disk = try DiskCache(directory: directory, configuration: diskConfiguration)
        let redis = try RedisCache(configuration: server.configuration())
        let memory = MockMemoryCache()
        let coder = MockCoder(magic: "MOCK", marker: 9)
        let cache = TieredImageCache(memory: memory, dataTiers: [disk, redis], coders: coder)
        let bytes = coder.data(width: 3, height: 2)

        // Another host stored it: only Redis has it.
        try RedisCache(configuration: server.configuration()).setData(bytes, forKey: "shared")
        #expect(disk.data(forKey: "shared") == nil)
        #expect(await cache.contains(key: "shared", cacheType: .all) == .disk)
        let hit = await cache.query(key: "shared", options: [], context: .init(), cacheType: .all)
        #expect(hit?.cacheType == .disk)
        #expect(hit?.data == bytes)
        #expect(hit?.image == nil)  // bytes: the manager decodes and fills memory
        #expect(disk.data(forKey: "shared") == bytes)  // promoted to disk
        #expect(memory.keys.isEmpty)
        let again = await cache.query(key: "shared", options: [], context: .init(), cacheType: .all)
        #expect(again?.cacheType == .disk)

        // A store goes to every tier; a remove and a clear reach Redis too.
        await cache.store(image: nil, data: bytes, key: "new", cacheType: .all, context: .init())
        #expect(redis.data(forKey: "new") == bytes)
        await cache.remove(key: "new", cacheType: .all)
        #expect(redis.data(forKey: "new") == nil)
        await cache.clear(cacheType: .all)
        #expect(redis.data(forKey: "shared") == nil)
        #expect(disk.totalCount == 0)
    }
}

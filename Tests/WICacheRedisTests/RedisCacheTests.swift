import Foundation
import Testing
@testable import WICacheRedis
import WICore
import WITestSupport

@Suite struct RedisCacheTests {
    @Test func storesQueriesRemovesAndClearsItsNamespaceOnly() throws {
        let server = try RedisServer()
        let redis = try RedisCache(configuration: server.configuration())
        var otherConfiguration = server.configuration()
        otherConfiguration.namespace = "other:"
        let other = try RedisCache(configuration: otherConfiguration)

        #expect(redis.data(forKey: "a") == nil)
        #expect(!redis.containsData(forKey: "a"))
        redis.setData(Data("alpha".utf8), forKey: "a")
        redis.setData(Data("beta".utf8), forKey: "b")
        other.setData(Data("kept".utf8), forKey: "a")
        #expect(redis.data(forKey: "a") == Data("alpha".utf8))
        #expect(redis.containsData(forKey: "b"))
        #expect(redis.redisKey(forKey: "a") == "test:d:a")
        #expect(try redis.execute(["GET", "test:d:a"]) == .string(Data("alpha".utf8)))

        redis.setData(Data("alpha2".utf8), forKey: "a")  // replaces
        #expect(redis.data(forKey: "a") == Data("alpha2".utf8))
        redis.removeData(forKey: "a")
        #expect(redis.data(forKey: "a") == nil)
        redis.removeData(forKey: "never-stored")  // not an error
        #expect(try redis.readData(forKey: "b") == Data("beta".utf8))

        for index in 0..<1200 { redis.setData(Data([UInt8(index & 0xFF)]), forKey: "bulk\(index)") }
        #expect(try redis.removeAll() == 1201)  // several SCAN pages
        #expect(redis.data(forKey: "b") == nil)
        #expect(other.data(forKey: "a") == Data("kept".utf8))
        #expect(try redis.execute(["DBSIZE"]) == .integer(1))
    }

    /// HTTP cache info beside the bytes (`<namespace>h:<key>`): stored and dropped with them, renewed alone.
    @Test func keepsHTTPCacheInfoBesideTheBytes() throws {
        let server = try RedisServer()
        let redis = try RedisCache(configuration: server.configuration())
        let info = HTTPCacheInfo(
            etag: "\"v1\"", date: Date(timeIntervalSince1970: 1_800_000_000), freshnessLifetime: 60,
            noCache: true)
        redis.setData(Data("alpha".utf8), httpCacheInfo: info, forKey: "a")
        #expect(redis.data(forKey: "a") == Data("alpha".utf8))
        #expect(redis.httpCacheInfo(forKey: "a") == info)
        #expect(redis.httpCacheInfoKey(forKey: "a") == "test:h:a")
        var renewed = info
        renewed.date = info.date.addingTimeInterval(60)
        redis.setHTTPCacheInfo(renewed, forKey: "a")
        #expect(redis.httpCacheInfo(forKey: "a") == renewed && redis.data(forKey: "a") == Data("alpha".utf8))
        redis.setHTTPCacheInfo(renewed, forKey: "missing")  // no entry: nothing written
        #expect(redis.httpCacheInfo(forKey: "missing") == nil)
        redis.setData(Data("beta".utf8), forKey: "a")  // new bytes without info drop the old info
        #expect(redis.httpCacheInfo(forKey: "a") == nil)
        redis.setData(Data("gamma".utf8), httpCacheInfo: info, forKey: "a")
        redis.removeData(forKey: "a")
        #expect(redis.httpCacheInfo(forKey: "a") == nil)
        #expect(try redis.execute(["DBSIZE"]) == .integer(0))
    }

    @Test func valuesAndKeysAreBinarySafe() throws {
        let server = try RedisServer()
        let redis = try RedisCache(configuration: server.configuration())
        let everyByte = Data((0...255).map { UInt8($0) })
        let key = "https://example.com/a b/ü?x=1&y=\r\n*3"
        redis.setData(everyByte + everyByte.reversed(), forKey: key)
        #expect(redis.data(forKey: key) == everyByte + everyByte.reversed())
        redis.setData(Data(), forKey: "empty")
        #expect(redis.data(forKey: "empty") == Data())
        #expect(redis.containsData(forKey: "empty"))
        let large = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
        redis.setData(large, forKey: "large")
        #expect(redis.data(forKey: "large") == large)
    }

    @Test func entriesExpireAfterTheirTimeToLive() async throws {
        let server = try RedisServer()
        var configuration = server.configuration()
        configuration.timeToLive = .milliseconds(1000)
        let redis = try RedisCache(configuration: configuration)
        redis.setData(Data([1]), forKey: "short")
        try redis.store(Data([2]), forKey: "longer", timeToLive: .seconds(60))
        let ttl = try redis.execute(["PTTL", "test:d:short"]).integer()
        #expect(ttl > 0 && ttl <= 1000)
        let longer = try redis.execute(["PTTL", "test:d:longer"]).integer()
        #expect(longer > 59_000 && longer <= 60_000)
        #expect(redis.data(forKey: "short") == Data([1]))
        try await Task.sleep(for: .milliseconds(1200))
        #expect(redis.data(forKey: "short") == nil)
        #expect(redis.data(forKey: "longer") == Data([2]))

        // The default is the disk cache's max age, one week; nil stores without expiry.
        let defaults = try RedisCache(configuration: server.configuration())
        defaults.setData(Data([3]), forKey: "week")
        let week = try defaults.execute(["PTTL", "test:d:week"]).integer()
        #expect(week > 604_790_000 && week <= 604_800_000)
        var forever = server.configuration()
        forever.timeToLive = nil
        try RedisCache(configuration: forever).setData(Data([4]), forKey: "forever")
        #expect(try defaults.execute(["PTTL", "test:d:forever"]) == .integer(-1))
    }

    @Test func entriesAboveTheSizeCapAreNotStored() throws {
        let server = try RedisServer()
        var configuration = server.configuration()
        configuration.maxEntrySize = 1000
        let redis = try RedisCache(configuration: configuration)
        redis.setData(Data(count: 1000), forKey: "fits")
        #expect(redis.data(forKey: "fits")?.count == 1000)
        redis.setData(Data(count: 1001), forKey: "too-big")
        #expect(redis.data(forKey: "too-big") == nil)
        redis.setData(Data(count: 1001), forKey: "fits")  // an older entry under the key goes too
        #expect(redis.data(forKey: "fits") == nil)
        #expect(throws: ImageError.self) { try redis.store(Data(count: 5000), forKey: "x") }
        do { try redis.store(Data(count: 5000), forKey: "x") } catch { #expect(error.code == .redisEntryTooLarge) }
    }

    @Test func multiGetFetchesInPipelinedBatches() throws {
        let server = try RedisServer()
        var configuration = server.configuration()
        configuration.multiGetBatchSize = 7
        let redis = try RedisCache(configuration: configuration)
        for index in stride(from: 0, to: 50, by: 2) { redis.setData(Data("v\(index)".utf8), forKey: "k\(index)") }
        let keys = (0..<50).map { "k\($0)" } + ["missing"]
        let found = redis.data(forKeys: keys)
        #expect(found.count == 25)
        #expect(
            found
                == Dictionary(
                    uniqueKeysWithValues: stride(from: 0, to: 50, by: 2).map { ("k\($0)", Data("v\($0)".utf8)) }))
        #expect(redis.data(forKeys: []) == [:])
        #expect(redis.pool.connectAttempts == 1)  // 26 sets and 8 MGET batches over one pooled connection
    }

    @Test func authenticatesAndSelectsTheDatabase() throws {
        let server = try RedisServer(["--requirepass", "s3cret"])
        var configuration = server.configuration()
        configuration.password = "s3cret"
        configuration.database = 3
        let redis = try RedisCache(configuration: configuration)
        redis.setData(Data([9]), forKey: "k")
        #expect(redis.data(forKey: "k") == Data([9]))
        configuration.database = 0
        #expect(try RedisCache(configuration: configuration).data(forKey: "k") == nil)  // another database
        configuration.username = "default"  // ACL form: AUTH user password
        configuration.database = 3
        #expect(try RedisCache(configuration: configuration).data(forKey: "k") == Data([9]))

        let warnings = Warnings()
        var wrong = server.configuration(warnings: warnings)
        wrong.password = "nope"
        let rejected = try RedisCache(configuration: wrong)
        #expect(rejected.data(forKey: "k") == nil)
        do { _ = try rejected.readData(forKey: "k") } catch { #expect(error.code == .redisUnavailable) }
        #expect(warnings.count == 1)
        #expect(warnings.all.first?.contains("WRONGPASS") == true)
        var none = server.configuration()
        none.password = nil
        do { _ = try RedisCache(configuration: none).readData(forKey: "k") } catch {
            #expect(error.code == .redisCommandFailed)  // NOAUTH is the server's error reply
            #expect(error.message.hasPrefix("NOAUTH"))
        }
    }

    @Test(arguments: [8, 3]) func thePoolReusesConnectionsAndKeepsAtMostItsIdleLimit(maxIdle: Int) async throws {
        let server = try RedisServer()
        var configuration = server.configuration()
        configuration.maxIdleConnections = maxIdle
        let redis = try RedisCache(configuration: configuration)
        let threads = blockingThreads
        let failures = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<12 {
                group.addTask {
                    await threads.run {
                        var failures = 0
                        for step in 0..<100 {
                            let value = Data("\(worker)-\(step)".utf8)
                            redis.setData(value, forKey: "w\(worker)")
                            if redis.data(forKey: "w\(worker)") != value { failures += 1 }
                        }
                        return failures
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        if maxIdle == 8 {
            // Never more than 8 at once (the threads), none closed: every connection opened is idle now.
            #expect(redis.pool.connectAttempts <= 8)
            #expect(redis.pool.idleCount == redis.pool.connectAttempts)
        } else {
            #expect(redis.pool.idleCount <= 3)
            #expect(redis.pool.idleCount >= 1)
        }
    }
}

import Foundation
import Testing
@testable import WICacheRedis
import WICore
import WITestSupport

/// Redis down, slow or restarting: misses and dropped writes within the timeout, no reconnection storm, one
/// warning per outage, recovery after a restart, and loads that never fail because of Redis.
@Suite struct OutageTests {
    @Test func aServerThatIsNotThereGivesFastMissesAndOneWarning() throws {
        let warnings = Warnings()
        var configuration = RedisCache.Configuration(host: "127.0.0.1", port: RedisServer.freePort())
        configuration.reconnectDelay = .seconds(5)
        configuration.warningHandler = { warnings.append($0) }
        let redis = try RedisCache(configuration: configuration)
        for index in 0..<500 {
            #expect(redis.data(forKey: "k\(index)") == nil)
            redis.setData(Data([1]), forKey: "k\(index)")
            #expect(!redis.containsData(forKey: "k\(index)"))
        }
        #expect(redis.pool.connectAttempts == 1)  // the breaker answers the other 1,499 calls
        #expect(warnings.count == 1)
        #expect(warnings.all[0].contains("127.0.0.1:\(configuration.port) is unavailable"))
        do { _ = try redis.readData(forKey: "k") } catch {
            #expect(error.code == .redisUnavailable)
            #expect(error.message.contains("next try in"))
        }
    }

    @Test func anIdleConnectionTheServerClosedIsReplacedWithoutAnOutage() throws {
        let server = try RedisServer()
        let warnings = Warnings()
        let redis = try RedisCache(configuration: server.configuration(warnings: warnings))
        let large = Data(repeating: 0xAB, count: 6_000_000)
        redis.setData(Data([1]), forKey: "k")  // one pooled connection
        let admin = try RedisCache(configuration: server.configuration())
        for round in 1...3 {
            // The server drops the tier's idle connection (as its `timeout` setting or a restart would).
            #expect(try admin.execute(["CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"]) == .integer(1))
            if round == 2 {
                // A big write into the closed socket: the peer's reset raises SIGPIPE, which must not kill us.
                try redis.store(large, forKey: "large", timeToLive: nil)
                #expect(redis.data(forKey: "large") == large)
            } else {
                #expect(redis.data(forKey: "k") == Data([1]))
            }
            #expect(redis.pool.connectAttempts == round + 1)
        }
        #expect(warnings.count == 0)
        #expect(!redis.pool.isInOutage)
    }

    @Test func reconnectionTriesBackOffExponentially() async throws {
        var configuration = RedisCache.Configuration(host: "127.0.0.1", port: RedisServer.freePort())
        configuration.reconnectDelay = .milliseconds(20)
        configuration.maxReconnectDelay = .milliseconds(160)
        configuration.warningHandler = { _ in }
        let redis = try RedisCache(configuration: configuration)
        // Each failed try doubles the wait before the next one, up to the maximum.
        let delays = await blocking {
            var delays: [Duration] = []
            while redis.pool.connectAttempts < 6 {
                let before = redis.pool.connectAttempts
                _ = redis.data(forKey: "k")
                if redis.pool.connectAttempts > before { delays.append(redis.pool.reconnectDelay) }
                usleep(1000)
            }
            return delays
        }
        #expect(delays == [20, 40, 80, 160, 160, 160].map { Duration.milliseconds($0) })
    }

    @Test func aFrozenServerTimesOutAndRecoversWhenItRunsAgain() async throws {
        let server = try RedisServer()
        let warnings = Warnings()
        var configuration = server.configuration(warnings: warnings)
        configuration.reconnectDelay = .milliseconds(500)  // no reconnection try during the checks below
        configuration.maxReconnectDelay = .milliseconds(500)
        let redis = try RedisCache(configuration: configuration)
        redis.setData(Data("v".utf8), forKey: "k")
        server.pause()
        let (first, waited, second) = await blocking {
            let start = ContinuousClock.now
            let first = redis.data(forKey: "k")
            let waited = milliseconds(since: start)
            return (first, waited, Result { () throws(ImageError) in try redis.readData(forKey: "k") })
        }
        #expect(first == nil)
        #expect(waited >= 190 && waited < 5000)  // the 200 ms command timeout, not forever
        guard case .failure(let error) = second else {
            Issue.record("a frozen server answered")
            return
        }
        #expect(error.code == .redisUnavailable)
        #expect(error.message.contains("next try in"))  // the breaker answered: no second timeout
        #expect(redis.pool.connectAttempts == 1)
        server.resume()
        try await waitForRecovery(redis, key: "k", expected: Data("v".utf8))
        #expect(warnings.count == 1)
    }

    @Test func killedAndRestartedMidRunEveryLoadSucceedsAndTheTierRecovers() async throws {
        let server = try RedisServer()
        let warnings = Warnings()
        let redis = try RedisCache(configuration: server.configuration(warnings: warnings))
        let coder = MockCoder(magic: "MOCK", marker: 3)
        let origin = MockLoader()
        let urls = (0..<120).map { URL(string: "mock://origin/\($0).png")! }
        for url in urls { origin.register(url, data: coder.data(width: 2, height: 1, extra: url.absoluteString)) }
        let loader = RedisSingleFlightLoader(wrapping: origin, redis: redis)
        let manager = ImageManager(
            cache: TieredImageCache(memory: nil, dataTiers: [redis], coders: coder),
            loader: loader, coders: coder)

        var failures = 0
        for (index, url) in urls.enumerated() {
            if index == 40 { server.kill() }
            do {
                let result = try await manager.loadImage(with: url)
                if result.image.width != 2 { failures += 1 }
            } catch { failures += 1 }
        }
        #expect(failures == 0)
        #expect(origin.loadCount == 120)  // everything after the kill came from the origin
        #expect(warnings.count == 1)  // one outage, one warning
        #expect(redis.pool.isInOutage)
        #expect(redis.data(forKey: urls[10].absoluteString) == nil)

        try server.start()  // an empty server on the same port
        try await waitForRecovery(redis, key: "probe", expected: nil)
        #expect(!redis.pool.isInOutage)
        let reloaded = try await manager.loadImage(with: urls[0])
        #expect(reloaded.cacheType == .none)
        #expect(
            redis.data(forKey: urls[0].absoluteString) == coder.data(width: 2, height: 1, extra: urls[0].absoluteString)
        )
        let hit = try await ImageManager(
            cache: TieredImageCache(memory: nil, dataTiers: [redis], coders: coder),
            loader: loader, coders: coder
        ).loadImage(with: urls[0])
        #expect(hit.cacheType == .disk)  // a data-tier hit: the tier serves again
        #expect(origin.loadCount == 121)
        #expect(warnings.count == 1)

        server.kill()  // a second outage warns once more
        for url in urls.prefix(5) { _ = redis.data(forKey: url.absoluteString) }
        #expect(warnings.count == 2)
    }

    /// Calls the tier until the breaker lets a try through and it answers (at most ten seconds).
    private func waitForRecovery(_ redis: RedisCache, key: String, expected: Data?) async throws {
        let start = ContinuousClock.now
        while milliseconds(since: start) < 10_000 {
            if let found = try? redis.readData(forKey: key), found == expected { return }
            if expected == nil, (try? redis.contains(forKey: key)) != nil { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the tier did not recover within 10 s")
    }
}

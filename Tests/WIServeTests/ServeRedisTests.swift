import Foundation
import HTTPTypes
import HummingbirdTesting
import Synchronization
import Testing
import WebImage
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// `--redis`: two `wi serve` apps sharing one real redis-server (started by the test, stopped by PID). The origin's
/// request log gives the exact number of origin fetches.
@Suite(.serialized) struct ServeRedisTests {
    typealias H = ServeHarness

    /// The tests' configuration with the shared tier and no local caches (so only Redis can spare an origin fetch).
    static func configuration(_ redis: RedisServer) -> ServeConfiguration {
        H.configuration {
            $0.redisURL = "redis://127.0.0.1:\(redis.port)"
            $0.concurrency = 8
            $0.queue = 8
        }
    }

    @Test func theSecondServerServesWhatTheFirstFetchedWithoutTheOrigin() async throws {
        let redis = try RedisServer()
        let h = try await ServeHarness()
        try await h.withServer(Self.configuration(redis), keepOrigin: true) { _, client in
            let response = try await client.execute(uri: "/unsafe/fit-in/40x40/\(h.url("/stripes.png"))", method: .get)
            #expect(try H.image(response).size == PixelSize(width: 40, height: 20))
        }
        #expect(h.origin.requestCount("/stripes.png") == 1)
        try await h.withServer(Self.configuration(redis)) { server, client in
            let response = try await client.execute(uri: "/unsafe/fit-in/80x80/\(h.url("/stripes.png"))", method: .get)
            let image = try H.image(response)
            #expect(image.size == PixelSize(width: 80, height: 40))
            #expect(image.pixels.color(x: 5, y: 20).isClose(to: H.red, tolerance: 0))
            #expect(server.service.renders.load(ordering: .relaxed) == 1)
        }
        #expect(h.origin.requestCount("/stripes.png") == 1)
    }

    /// Eight clients, four on each server, ask for one source while the origin holds it: one origin fetch (the
    /// first server's manager coalesces its four; the second server waits on the Redis lease), eight answers.
    @Test func eightClientsOnTwoServersCauseOneOriginFetch() async throws {
        let redis = try RedisServer()
        let h = try await ServeHarness()
        let first = try await ImageServer(configuration: Self.configuration(redis))
        let second = try await ImageServer(configuration: Self.configuration(redis))
        let path = "/unsafe/fit-in/10x10/\(h.url("/gated.png"))"
        do {
            try await first.makeApplication().test(.router) { a in
                try await second.makeApplication().test(.router) { b in
                    try await withThrowingTaskGroup(of: HummingbirdTesting.TestResponse.self) { group in
                        for _ in 0..<4 { group.addTask { try await a.execute(uri: path, method: .get) } }
                        var arrivals = h.arrivals.makeAsyncIterator()
                        _ = await arrivals.next()  // the first server's load is at the origin, holding the lease
                        try await AdmissionGateTests.wait(first.service.gate, for: (0, 0), yielded: 4)
                        for _ in 0..<4 { group.addTask { try await b.execute(uri: path, method: .get) } }
                        try await AdmissionGateTests.wait(second.service.gate, for: (0, 0), yielded: 4)
                        // The second server's load polls the lease (URLs on 127.0.0.1 use the --allow-host loader).
                        let waiters = second.service.parts.singleFlights
                        #expect(waiters.count == 2)
                        for _ in 0..<6000 where waiters.reduce(0, { $0 + $1.leaseAttemptCount }) < 2 {
                            try await Task.sleep(for: .milliseconds(5))
                        }
                        #expect(waiters.reduce(0) { $0 + $1.leaseAttemptCount } >= 2)
                        #expect(h.origin.requestCount("/gated.png") == 1)
                        h.gate.open()
                        var answered = 0
                        for try await response in group {
                            #expect(response.status == .ok)
                            #expect(try H.image(response).size == PixelSize(width: 10, height: 5))
                            answered += 1
                        }
                        #expect(answered == 8)
                    }
                }
            }
        } catch {
            h.gate.open()
            await first.manager.shutdown()
            await second.manager.shutdown()
            await h.origin.stop()
            throw error
        }
        await first.manager.shutdown()
        await second.manager.shutdown()
        #expect(h.origin.requestCount("/gated.png") == 1)
        await h.origin.stop()
    }
}

/// A start that fails (a bad cache folder, an unreachable Redis) shuts down what it had made before failing.
@Suite struct ServeStartTests {
    typealias H = ServeHarness

    /// Collects what the server makes.
    final class Made: Sendable {
        private let parts = Mutex<[any ShutdownCapable]>([])
        func append(_ part: any ShutdownCapable) { parts.withLock { $0.append(part) } }
        var all: [any ShutdownCapable] { parts.withLock { $0 } }
    }

    @Test func aBadCacheFolderShutsDownTheLoadersAndRedis() async throws {
        let redis = try RedisServer()
        let file = NSTemporaryDirectory() + "wi-serve-not-a-folder-\(UUID().uuidString)"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let configuration = H.configuration {
            $0.useCache = true
            $0.cacheDirectory = file + "/cache"
            $0.redisURL = "redis://127.0.0.1:\(redis.port)"
        }
        let made = Made()
        do {
            _ = try await ImageServer(configuration: configuration, logger: .webImageNoOp, made: made.append)
            Issue.record("the start succeeded with a file as the cache folder")
        } catch {
            #expect(error.code != .invalidArgument)
        }
        let parts = made.all
        let loaders = parts.compactMap { $0 as? CurlImageLoader }
        let caches = parts.compactMap { $0 as? RedisCache }
        #expect(loaders.count == 2)  // the public one and the --allow-host one
        #expect(caches.count == 1)
        #expect(parts.filter { $0 is RedisSingleFlightLoader }.count == 2)
        #expect(parts.count == 5)
        for loader in loaders {
            do {
                _ = try await loader.load(ImageLoading.Request(url: URL(string: "http://127.0.0.1:1/x.png")!))
                Issue.record("a loader still loads after the failed start")
            } catch {
                #expect(error.code == .shutDown)
            }
        }
        do {
            _ = try caches[0].contains(forKey: "x")
            Issue.record("the Redis tier still works after the failed start")
        } catch {
            #expect(error.code == .shutDown)
        }
    }

    @Test func anUnreachableRedisFailsTheStartAndIsShutDown() async throws {
        let configuration = H.configuration { $0.redisURL = "redis://127.0.0.1:\(RedisServer.freePort())" }
        let made = Made()
        do {
            _ = try await ImageServer(configuration: configuration, logger: .webImageNoOp, made: made.append)
            Issue.record("the start succeeded without a Redis")
        } catch {
            #expect(error.code == .networkError)
            #expect(error.message.contains("cannot be reached"))
        }
        let caches = made.all.compactMap { $0 as? RedisCache }
        #expect(made.all.count == 1 && caches.count == 1)
        do {
            _ = try caches[0].contains(forKey: "x")
            Issue.record("the Redis tier still works after the failed start")
        } catch {
            #expect(error.code == .shutDown)
        }
    }
}

import Foundation
import Synchronization
import Testing
import WebImage
import WITestServer
import WITestSupport

/// A wall clock the test moves: HTTP freshness is judged by it.
final class TestWallClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    var now: Date { current.withLock { $0 } }

    func advance(seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// A memory + disk manager over the curl loader, on a cache folder of its own, judging freshness by a test clock.
struct HTTPCacheRig {
    let folder: String
    let clock: TestWallClock
    let manager: ImageManager
    let disk: DiskCache
    let memory: MemoryCache

    init(folder: String, clock: TestWallClock = TestWallClock()) throws {
        self.folder = folder
        self.clock = clock
        let coders = WebImage.makeCoders()
        disk = try DiskCache(directory: folder)
        memory = try MemoryCache(configuration: .init())
        let cache = TieredImageCache(memory: memory, dataTiers: [disk], coders: coders)
        var loading = CurlImageLoader.Configuration()
        loading.lowSpeedTime = 90
        let loader = try CurlImageLoader(configuration: loading)
        var configuration = ImageManager.Configuration(cache: cache, loader: loader, coders: coders)
        configuration.owning = [loader, cache]
        configuration.now = { [clock] in clock.now }
        manager = ImageManager(configuration: configuration)
    }

    static func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("wi-http-\(UUID().uuidString)").path
    }

    /// A server answering `/a.png` with `route`, a rig on a new folder, and the URL.
    static func serving(_ route: @escaping @Sendable (TestHTTPServer.Request) -> TestResponse) async throws
        -> (server: TestHTTPServer, rig: HTTPCacheRig, url: URL)
    {
        let server = try await TestHTTPServer.start()
        server.route("/a.png", route)
        return (server, try HTTPCacheRig(folder: folder()), server.url("/a.png"))
    }

    /// Loads `url` once from the network and stores it (waiting for the stores).
    func prime(_ url: URL, context: ImageContext = .init()) async throws {
        let loaded = try await manager.loadImage(with: url, options: .waitStoreCache, context: context)
        #expect(loaded.cacheType == .none)
    }

    /// Shuts the manager down and removes the folder.
    func finish() async {
        await manager.shutdown()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A context with `policy`, and a thumbnail box of `thumbnail` pixels a side when given.
    static func context(_ policy: HTTPCachePolicy, thumbnail: Int? = nil) -> ImageContext {
        var context = ImageContext()
        context[.httpCachePolicy] = policy
        if let thumbnail { context[.thumbnailPixelSize] = PixelSize(width: thumbnail, height: thumbnail) }
        return context
    }
}

/// Collects the callback form's calls.
final class Callbacks: Sendable {
    private let results = Mutex<[Result<ImageResult, ImageError>]>([])

    var all: [Result<ImageResult, ImageError>] { results.withLock { $0 } }

    func record(_ result: Result<ImageResult, ImageError>) { results.withLock { $0.append(result) } }

    /// Waits for the `count`th call (an event; bounded so a broken build fails instead of hanging).
    func wait(for count: Int) async {
        let deadline = ContinuousClock.now + .seconds(30)
        while all.count < count && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
    }
}

/// HTTP caching across every tier, against the in-process server, which logs each request's validators and the
/// body bytes it sent.
@Suite struct HTTPCachingTests {
    static let first = Fixtures.data("formats/sample.png")  // 300x300
    static let second = Fixtures.data("png/indexed-4bit-trns.png")  // 687x123

    /// A 304 keeps the image and sends no body; the entry's date and freshness are renewed; no second callback.
    @Test func notModifiedKeepsTheImageAndSendsNoBody() async throws {
        let (server, rig, url) = try await HTTPCacheRig.serving {
            .cacheable(Self.first, etag: "\"v1\"", cacheControl: "max-age=60", request: $0)
        }
        let loaded = try await rig.manager.loadImage(with: url, options: .waitStoreCache)
        #expect(loaded.cacheType == .none && loaded.image.size == PixelSize(width: 300, height: 300))
        let stored = try #require(rig.disk.httpCacheInfo(forKey: url.absoluteString))
        #expect(stored.etag == "\"v1\"" && stored.freshnessLifetime == 60 && stored.date == rig.clock.now)

        rig.clock.advance(seconds: 600)
        let callbacks = Callbacks()
        rig.manager.loadImage(with: url, options: .refreshCached) { callbacks.record($0) }
        await callbacks.wait(for: 1)
        await rig.manager.waitUntilIdle()
        #expect(callbacks.all.count == 1)
        #expect(try callbacks.all[0].get().cacheType == .memory)
        let exchanges = server.exchanges("/a.png")
        #expect(exchanges.map(\.status) == [200, 304])
        #expect(exchanges.map(\.bodyBytes) == [Self.first.count, 0])
        #expect(exchanges[1].request.validators.ifNoneMatch == "\"v1\"")
        let renewed = try #require(rig.disk.httpCacheInfo(forKey: url.absoluteString))
        #expect(renewed.date == rig.clock.now && renewed.etag == "\"v1\"")
        #expect(rig.disk.data(forKey: url.absoluteString) == Self.first)
        #expect(rig.manager.httpCacheStatistics.notModified == 1)
        #expect(rig.manager.httpCacheStatistics.replaced == 0)
        await rig.finish()
    }

    /// A changed ETag: the new bytes replace the entry in memory and on disk, and the callback form calls again.
    @Test func aChangedETagReplacesTheEntryAndCallsBackAgain() async throws {
        let (server, rig, url) = try await HTTPCacheRig.serving {
            .cacheable(Self.first, etag: "\"v1\"", request: $0)
        }
        try await rig.prime(url)
        server.route("/a.png") { .cacheable(Self.second, etag: "\"v2\"", request: $0) }

        let callbacks = Callbacks()
        rig.manager.loadImage(with: url, options: .refreshCached) { callbacks.record($0) }
        await callbacks.wait(for: 2)
        await rig.manager.waitUntilIdle()
        let results = try callbacks.all.map { try $0.get() }
        #expect(results.map(\.cacheType) == [.memory, .none])
        #expect(results.map(\.image.size) == [PixelSize(width: 300, height: 300), PixelSize(width: 687, height: 123)])
        #expect(results[1].httpCacheOutcome == .replaced)
        let exchanges = server.exchanges("/a.png")
        #expect(exchanges.map(\.status) == [200, 200])
        #expect(exchanges.map(\.bodyBytes) == [Self.first.count, Self.second.count])
        #expect(exchanges[1].request.validators.ifNoneMatch == "\"v1\"")
        // Every tier holds the new image and its validator.
        #expect(rig.disk.data(forKey: url.absoluteString) == Self.second)
        #expect(rig.disk.httpCacheInfo(forKey: url.absoluteString)?.etag == "\"v2\"")
        #expect(rig.memory.image(forKey: url.absoluteString)?.size == PixelSize(width: 687, height: 123))
        let next = try await rig.manager.loadImage(with: url)
        #expect(next.cacheType == .memory && next.image.size == PixelSize(width: 687, height: 123))
        #expect(rig.manager.httpCacheStatistics.replaced == 1)
        await rig.finish()
    }

    /// Validators stored on disk survive the process: a new manager on the same folder revalidates with them.
    @Test func validatorsSurviveANewManagerOnTheSameFolder() async throws {
        let server = try await TestHTTPServer.start()
        let modified = "Thu, 05 Nov 2026 08:49:37 GMT"
        server.route("/a.png") {
            .cacheable(Self.first, etag: "W/\"v1\"", lastModified: modified, cacheControl: "max-age=30", request: $0)
        }
        let folder = HTTPCacheRig.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = TestWallClock()
        let url = server.url("/a.png")
        let before = try HTTPCacheRig(folder: folder, clock: clock)
        _ = try await before.manager.loadImage(with: url, options: .waitStoreCache)
        await before.manager.shutdown()

        clock.advance(seconds: 31)
        let after = try HTTPCacheRig(folder: folder, clock: clock)
        let info = try #require(after.disk.httpCacheInfo(forKey: url.absoluteString))
        #expect(info.etag == "W/\"v1\"" && info.lastModified == modified && info.freshnessLifetime == 30)
        let result = try await after.manager.loadImage(with: url, context: HTTPCacheRig.context(.respect))
        #expect(result.cacheType == .disk && result.httpCacheOutcome == .revalidated)
        #expect(result.image.size == PixelSize(width: 300, height: 300))
        let exchanges = server.exchanges("/a.png")
        #expect(exchanges.map(\.status) == [200, 304])
        #expect(exchanges[1].request.validators.ifNoneMatch == "W/\"v1\"")
        #expect(exchanges[1].request.validators.ifModifiedSince == modified)
        await after.manager.shutdown()
    }

    /// `.respect`: no request while fresh; once stale, one conditional request before answering; then fresh again.
    @Test func respectMakesNoRequestWhileFreshAndOneConditionalRequestOnceStale() async throws {
        let (server, rig, url) = try await HTTPCacheRig.serving {
            .cacheable(Self.first, etag: "\"v1\"", cacheControl: "max-age=60", request: $0)
        }
        let respect = HTTPCacheRig.context(.respect)
        let events = rig.manager.events()
        try await rig.prime(url, context: respect)
        rig.clock.advance(seconds: 59)
        let fresh = try await rig.manager.loadImage(with: url, context: respect)
        #expect(fresh.cacheType == .memory && fresh.httpCacheOutcome == .fresh)
        #expect(server.requestCount("/a.png") == 1)

        rig.clock.advance(seconds: 2)
        let revalidated = try await rig.manager.loadImage(with: url, context: respect)
        #expect(revalidated.cacheType == .memory && revalidated.httpCacheOutcome == .revalidated)
        #expect(server.exchanges("/a.png").map(\.status) == [200, 304])
        #expect(server.requests("/a.png")[1].validators.ifNoneMatch == "\"v1\"")
        // Renewed: fresh for another 60 seconds, in memory and on disk.
        rig.clock.advance(seconds: 59)
        #expect(try await rig.manager.loadImage(with: url, context: respect).httpCacheOutcome == .fresh)
        rig.memory.removeAll()
        let fromDisk = try await rig.manager.loadImage(with: url, context: respect)
        #expect(fromDisk.cacheType == .disk && fromDisk.httpCacheOutcome == .fresh)
        #expect(server.requestCount("/a.png") == 2)
        let statistics = rig.manager.httpCacheStatistics
        #expect(
            statistics.fresh == 3 && statistics.notModified == 1 && statistics.stale == 0 && statistics.replaced == 0)
        // The events say so too, in load order.
        var outcomes: [ImageResult.HTTPCacheOutcome] = []
        for await event in events {
            if case .httpCache(let outcome) = event.kind { outcomes.append(outcome) }
            if outcomes.count == 4 { break }
        }
        #expect(outcomes == [.fresh, .revalidated, .fresh, .fresh])
        await rig.finish()
    }

    /// `no-cache` is revalidated before every use, however long its max-age.
    @Test func noCacheIsAlwaysRevalidated() async throws {
        let (server, rig, url) = try await HTTPCacheRig.serving {
            .cacheable(Self.first, etag: "\"v1\"", cacheControl: "no-cache, max-age=3600", request: $0)
        }
        let respect = HTTPCacheRig.context(.respect)
        try await rig.prime(url, context: respect)
        for _ in 0..<2 {
            #expect(try await rig.manager.loadImage(with: url, context: respect).httpCacheOutcome == .revalidated)
        }
        #expect(server.exchanges("/a.png").map(\.status) == [200, 304, 304])
        // `.fromCacheOnly` forbids the request: the entry answers as it is.
        let offline = try await rig.manager.loadImage(with: url, options: .fromCacheOnly, context: respect)
        #expect(offline.httpCacheOutcome == .stale && offline.cacheType == .memory)
        #expect(server.requestCount("/a.png") == 3)
        await rig.finish()
    }

    /// Ten concurrent stale hits under stale-while-revalidate answer at once (the server holds its answer until
    /// they all have) and cause exactly one conditional request.
    @Test func tenConcurrentStaleHitsCauseOneConditionalRequest() async throws {
        let (server, rig, url, gate) = try await Self.staleBehindGate()
        defer { gate.open() }
        let swr = Self.swr
        let manager = rig.manager
        let answers = try await withThrowingTaskGroup(of: ImageResult.self) { group in
            for _ in 0..<10 { group.addTask { try await manager.loadImage(with: url, context: swr) } }
            return try await group.reduce(into: [ImageResult]()) { $0.append($1) }
        }
        // All ten answered while the server still holds the revalidation.
        #expect(answers.count == 10)
        #expect(answers.allSatisfy { $0.cacheType == .memory && $0.httpCacheOutcome == .stale })
        #expect(manager.isRunning)
        gate.open()
        await manager.waitUntilIdle()
        let exchanges = server.exchanges("/a.png")
        #expect(exchanges.map(\.status) == [200, 304])
        #expect(exchanges[1].request.validators.ifNoneMatch == "\"v1\"")
        #expect(manager.httpCacheStatistics.stale == 10 && manager.httpCacheStatistics.notModified == 1)
        // Renewed by the 304: fresh again.
        #expect(try await manager.loadImage(with: url, context: swr).httpCacheOutcome == .fresh)
        await rig.finish()
    }

    /// Conditional headers do not split identical revalidations: a stale hit's background revalidation and a
    /// `.refreshCached` one of the same entry, in flight together, share one conditional request.
    @Test func aStaleHitAndARefreshShareOneConditionalRequest() async throws {
        let (server, rig, url, gate) = try await Self.staleBehindGate()
        defer { gate.open() }
        #expect(try await rig.manager.loadImage(with: url, context: Self.swr).httpCacheOutcome == .stale)
        #expect(try await rig.manager.loadImage(with: url, options: .refreshCached).cacheType == .memory)
        // Both revalidations wait on the one download (an event, bounded so a broken build fails, not hangs).
        let deadline = ContinuousClock.now + .seconds(30)
        while rig.manager.downloadWaiterCount < 2 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(rig.manager.downloadWaiterCount == 2)
        gate.open()
        await rig.manager.waitUntilIdle()
        #expect(server.exchanges("/a.png").map(\.status) == [200, 304])
        #expect(rig.manager.statistics.loads == 2)
        await rig.finish()
    }

    /// Under stale-while-revalidate a changed image replaces the entry for the next load.
    @Test func aChangedImageReplacesTheEntryForTheNextLoad() async throws {
        let (server, rig, url) = try await HTTPCacheRig.serving {
            .cacheable(Self.first, etag: "\"v1\"", cacheControl: "max-age=10", request: $0)
        }
        let swr = HTTPCacheRig.context(.staleWhileRevalidate(maxStale: .seconds(60)))
        try await rig.prime(url, context: swr)
        server.route("/a.png") { .cacheable(Self.second, etag: "\"v2\"", cacheControl: "max-age=10", request: $0) }
        rig.clock.advance(seconds: 30)
        let stale = try await rig.manager.loadImage(with: url, context: swr)
        #expect(stale.httpCacheOutcome == .stale && stale.image.size == PixelSize(width: 300, height: 300))
        await rig.manager.waitUntilIdle()
        let next = try await rig.manager.loadImage(with: url, context: swr)
        #expect(next.cacheType == .memory && next.httpCacheOutcome == .fresh)
        #expect(next.image.size == PixelSize(width: 687, height: 123))
        #expect(rig.disk.data(forKey: url.absoluteString) == Self.second)
        #expect(server.exchanges("/a.png").map(\.bodyBytes) == [Self.first.count, Self.second.count])
        #expect(rig.manager.httpCacheStatistics.replaced == 1)
        // Beyond maxStale the entry is revalidated before answering instead.
        rig.clock.advance(seconds: 100)
        #expect(try await rig.manager.loadImage(with: url, context: swr).httpCacheOutcome == .revalidated)
        await rig.finish()
    }

    /// `no-store` never reaches disk when HTTP caching is respected (memory keeps it for this process).
    @Test func noStoreNeverReachesDisk() async throws {
        let (server, rig, url) = try await HTTPCacheRig.serving {
            .cacheable(Self.first, etag: "\"v1\"", cacheControl: "no-store", request: $0)
        }
        let thumbnail = HTTPCacheRig.context(.respect, thumbnail: 32)
        _ = try await rig.manager.loadImage(
            with: url, options: .waitStoreCache, context: HTTPCacheRig.context(.respect))
        _ = try await rig.manager.loadImage(with: url, options: [.waitStoreCache, .fromLoaderOnly], context: thumbnail)
        #expect(rig.disk.totalCount == 0)
        #expect(rig.memory.image(forKey: url.absoluteString) != nil)
        // `.ignore` keeps today's behaviour: stored everywhere.
        _ = try await rig.manager.loadImage(with: url, options: [.waitStoreCache, .fromLoaderOnly])
        #expect(rig.disk.data(forKey: url.absoluteString) == Self.first)
        #expect(rig.disk.httpCacheInfo(forKey: url.absoluteString)?.noStore == true)
        #expect(server.exchanges("/a.png").map(\.bodyBytes) == [Self.first.count, Self.first.count, Self.first.count])
        await rig.finish()
    }

    /// A server that sends Last-Modified alone: revalidated with If-Modified-Since.
    @Test func lastModifiedAloneWorks() async throws {
        let modified = "Thu, 05 Nov 2026 08:49:37 GMT"
        let (server, rig, url) = try await HTTPCacheRig.serving {
            .cacheable(Self.first, lastModified: modified, cacheControl: "max-age=0", request: $0)
        }
        let respect = HTTPCacheRig.context(.respect)
        try await rig.prime(url, context: respect)
        let result = try await rig.manager.loadImage(with: url, context: respect)
        #expect(result.httpCacheOutcome == .revalidated && result.image.size == PixelSize(width: 300, height: 300))
        let exchanges = server.exchanges("/a.png")
        #expect(exchanges.map(\.status) == [200, 304] && exchanges.map(\.bodyBytes) == [Self.first.count, 0])
        #expect(exchanges[1].request.validators.ifModifiedSince == modified)
        #expect(exchanges[1].request.validators.ifNoneMatch == nil)
        await rig.finish()
    }

    /// A thumbnail made from the cached original carries the original's validators, and is revalidated with them.
    @Test func aThumbnailIsRevalidatedWithTheOriginalsValidators() async throws {
        let (server, rig, url) = try await HTTPCacheRig.serving {
            .cacheable(Self.first, etag: "\"v1\"", cacheControl: "max-age=60", request: $0)
        }
        let thumbnail = HTTPCacheRig.context(.respect, thumbnail: 30)
        let made = try await rig.manager.loadImage(with: url, options: .waitStoreCache, context: thumbnail)
        #expect(made.cacheType == .none && made.image.size == PixelSize(width: 30, height: 30))
        let key = try #require(rig.manager.cacheKey(for: url, context: thumbnail))
        #expect(rig.disk.httpCacheInfo(forKey: key)?.etag == "\"v1\"")
        rig.clock.advance(seconds: 61)
        let revalidated = try await rig.manager.loadImage(with: url, context: thumbnail)
        #expect(
            revalidated.httpCacheOutcome == .revalidated && revalidated.image.size == PixelSize(width: 30, height: 30))
        #expect(server.exchanges("/a.png").map(\.status) == [200, 304])
        // Both entries were renewed.
        #expect(rig.disk.httpCacheInfo(forKey: key)?.date == rig.clock.now)
        #expect(rig.disk.httpCacheInfo(forKey: url.absoluteString)?.date == rig.clock.now)
        await rig.finish()
    }

    /// A background revalidation is tracked work that `shutdown()` stops: it returns while the server still holds
    /// the answer.
    @Test func shutdownStopsABackgroundRevalidation() async throws {
        let (_, rig, url, gate) = try await Self.staleBehindGate()
        defer { gate.open() }
        #expect(try await rig.manager.loadImage(with: url, context: Self.swr).httpCacheOutcome == .stale)
        #expect(rig.manager.isRunning)
        await rig.manager.shutdown()
        #expect(!rig.manager.isRunning)
        #expect(rig.manager.httpCacheStatistics.notModified == 0)
        await rig.finish()
    }

    /// Stale-while-revalidate with 60 seconds of grace.
    static let swr = HTTPCacheRig.context(.staleWhileRevalidate(maxStale: .seconds(60)))

    /// An entry (max-age=10, ETag "v1") stored and then stale for 20 seconds, its server holding every further
    /// answer until the returned gate opens.
    static func staleBehindGate() async throws -> (server: TestHTTPServer, rig: HTTPCacheRig, url: URL, gate: TestGate)
    {
        let gate = TestGate()
        let route = { @Sendable (request: TestHTTPServer.Request) in
            TestResponse.cacheable(Self.first, etag: "\"v1\"", cacheControl: "max-age=10", request: request)
        }
        let (server, rig, url) = try await HTTPCacheRig.serving(route)
        try await rig.prime(url, context: swr)
        server.route("/a.png") { route($0).held(by: gate) }
        rig.clock.advance(seconds: 30)
        return (server, rig, url, gate)
    }
}

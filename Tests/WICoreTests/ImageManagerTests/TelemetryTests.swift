import Foundation
import InMemoryTracing
import Logging
import Metrics
import MetricsTestKit
import Synchronization
import Testing
import Tracing
import WICore
import WITestSupport

/// A log handler that keeps every message (level, text, metadata) for assertions.
struct RecordingLogHandler: LogHandler {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    final class Store: Sendable {
        let entries = Mutex<[Entry]>([])
        var all: [Entry] { entries.withLock { $0 } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let entry = Entry(
            level: event.level, message: event.message.description,
            metadata: metadata.merging(event.metadata ?? [:]) { $1 })
        store.entries.withLock { $0.append(entry) }
    }
}

/// A manager over mocks whose metrics, spans and logs are recorded (nothing is bootstrapped process-wide).
struct TelemetryHarness {
    let memory = MockMemoryCache()
    let disk: MockDataCache
    let loader = MockLoader()
    let coder = MockCoder(magic: "MOCK", marker: 7)
    let metrics = TestMetrics()
    let tracer = InMemoryTracer()
    let logs = RecordingLogHandler.Store()
    let manager: ImageManager

    /// `tracing: false`: the manager gets the no-op tracer (as with no backend bootstrapped), `tracer` sees nothing.
    init(disk: MockDataCache = MockDataCache(), tracing: Bool = true) {
        self.disk = disk
        let coders = ImageCodersManager(coders: [coder])
        let cache = TieredImageCache(memory: memory, dataTiers: [disk], coders: coders, metrics: metrics)
        let store = logs
        let logger = Logger(label: "test", factory: { _ in RecordingLogHandler(store: store) })
        var configuration = ImageManager.Configuration(cache: cache, loader: loader, coders: coders)
        configuration.owning = [cache]
        configuration.logger = logger
        configuration.metrics = metrics
        configuration.tracer = tracing ? tracer : NoOpTracer()
        manager = ImageManager(configuration: configuration)
    }

    func serve(_ name: String) -> URL {
        let url = URL(string: "mock://host/\(name)")!
        loader.register(url, data: coder.data(width: 40, height: 20, extra: name))
        return url
    }

    func count(_ label: String, _ dimensions: [(String, String)] = []) throws -> Int64 {
        try metrics.expectCounter(label, dimensions).totalValue
    }

    func lookups(_ tier: String, _ result: String) throws -> Int64 {
        try count("webimage_cache_lookups_total", [("tier", tier), ("result", result)])
    }

    func loads() throws -> [String: Int64] {
        var loads: [String: Int64] = [:]
        for result in ["success", "failure", "cancelled"] {
            loads[result] = try count("webimage_loads_total", [("result", result)])
        }
        return loads
    }

    /// The finished spans by name, in the order they ended.
    var spanNames: [String] { tracer.finishedSpans.map(\.operationName) }

    func spans(_ name: String) -> [FinishedInMemorySpan] { tracer.finishedSpans.filter { $0.operationName == name } }

    /// Every finished span other than `webimage.load` is a child of the one load span, in the same trace.
    func expectChildrenOfOneLoad(sourceLocation: SourceLocation = #_sourceLocation) {
        let loads = spans("webimage.load")
        #expect(loads.count == 1, sourceLocation: sourceLocation)
        guard let load = loads.first else { return }
        for span in tracer.finishedSpans where span.operationName != "webimage.load" {
            #expect(span.parentSpanID == load.spanID, "\(span.operationName)", sourceLocation: sourceLocation)
            #expect(span.traceID == load.traceID, sourceLocation: sourceLocation)
        }
    }

    /// No message at info or above.
    var quietAboveDebug: Bool { logs.all.allSatisfy { $0.level < .info } }
}

extension SpanAttributes {
    func string(_ key: String) -> String? {
        guard case .string(let value)? = self[key]?.toSpanAttribute() else { return nil }
        return value
    }

    func int(_ key: String) -> Int64? {
        guard case .int64(let value)? = self[key]?.toSpanAttribute() else { return nil }
        return value
    }
}

@Suite struct TelemetryTests {
    @Test func coldLoadCountsTimesTracesAndLogsNothingAboveDebug() async throws {
        let h = TelemetryHarness()
        let url = h.serve("a.png")
        let bytes = h.coder.data(width: 40, height: 20, extra: "a.png").count
        let result = try await h.manager.loadImage(with: url, options: .waitStoreCache)
        #expect(result.cacheType == .none)

        #expect(try h.loads() == ["success": 1, "failure": 0, "cancelled": 0])
        #expect(try h.lookups("memory", "miss") == 1 && h.lookups("memory", "hit") == 0)
        // A data tier without a name of its own is counted under its type's name.
        #expect(try h.lookups("mockdatacache", "miss") == 1 && h.lookups("mockdatacache", "hit") == 0)
        #expect(try h.count("webimage_download_bytes_total") == Int64(bytes))
        #expect(try h.metrics.expectTimer("webimage_load_duration_seconds").values.count == 1)
        #expect(try h.metrics.expectTimer("webimage_decode_duration_seconds", [("format", "mock-7")]).values.count == 1)
        for stage in ["load", "decode", "transform"] {
            #expect(try h.count("webimage_coalesced_total", [("stage", stage)]) == 0)
        }
        let inflight = try h.metrics.expectMeter("webimage_inflight_loads")
        #expect(inflight.values == [1, 0])

        #expect(
            h.spanNames.sorted() == [
                "webimage.cache.query", "webimage.cache.store", "webimage.decode",
                "webimage.download", "webimage.load",
            ])
        h.expectChildrenOfOneLoad()
        let load = try #require(h.spans("webimage.load").first)
        #expect(load.parentSpanID == nil)
        #expect(load.attributes.string("webimage.url") == "mock://host/a.png")
        #expect(load.attributes.string("webimage.cache.type") == "none")
        let download = try #require(h.spans("webimage.download").first)
        #expect(download.attributes.int("webimage.bytes") == Int64(bytes))
        #expect(download.attributes.int("http.response.status_code") == 200)
        let decode = try #require(h.spans("webimage.decode").first)
        #expect(decode.attributes.string("webimage.format") == "mock-7")
        let query = try #require(h.spans("webimage.cache.query").first)
        #expect(query.attributes.string("webimage.key") == "mock://host/a.png")
        #expect(query.attributes.string("webimage.cache.type") == "none")

        #expect(h.quietAboveDebug)
        let traces = h.logs.all.filter { $0.level == .trace && $0.message == "image loaded" }
        #expect(traces.count == 1)
        #expect(traces.first?.metadata["webimage.url"] == "mock://host/a.png")
        #expect(traces.first?.metadata["webimage.key"] == "mock://host/a.png")
        await h.manager.shutdown()
    }

    @Test func memoryHitIsOneLookupAndOneQuerySpan() async throws {
        let h = TelemetryHarness()
        let url = h.serve("m.png")
        _ = try await h.manager.loadImage(with: url, options: .waitStoreCache)
        h.tracer.clearFinishedSpans()
        let hit = try await h.manager.loadImage(with: url)
        #expect(hit.cacheType == .memory)
        #expect(try h.loads() == ["success": 2, "failure": 0, "cancelled": 0])
        #expect(try h.lookups("memory", "hit") == 1 && h.lookups("memory", "miss") == 1)
        #expect(try h.lookups("mockdatacache", "miss") == 1 && h.lookups("mockdatacache", "hit") == 0)
        #expect(try h.metrics.expectTimer("webimage_load_duration_seconds").values.count == 2)
        #expect(try h.metrics.expectTimer("webimage_decode_duration_seconds", [("format", "mock-7")]).values.count == 1)
        #expect(h.spanNames.sorted() == ["webimage.cache.query", "webimage.load"])
        h.expectChildrenOfOneLoad()
        #expect(h.spans("webimage.cache.query").first?.attributes.string("webimage.cache.type") == "memory")
        #expect(h.spans("webimage.load").first?.attributes.string("webimage.cache.type") == "memory")
        #expect(h.quietAboveDebug)
        await h.manager.shutdown()
    }

    /// With no tracer a memory hit is answered in the caller's task before any shared work (the fast path): each
    /// tier is still asked, and counted, once per load; the hit has its events and load counters.
    @Test func withoutATracerEachTierIsAskedOncePerLoad() async throws {
        let h = TelemetryHarness(tracing: false)
        let url = h.serve("f.png")
        let events = h.manager.events()
        #expect(try await h.manager.loadImage(with: url, options: .waitStoreCache).cacheType == .none)
        #expect(try h.lookups("memory", "miss") == 1 && h.lookups("memory", "hit") == 0)
        #expect(try h.lookups("mockdatacache", "miss") == 1 && h.lookups("mockdatacache", "hit") == 0)
        #expect(try await h.manager.loadImage(with: url).cacheType == .memory)
        #expect(try h.lookups("memory", "miss") == 1 && h.lookups("memory", "hit") == 1)
        #expect(try h.lookups("mockdatacache", "miss") == 1 && h.lookups("mockdatacache", "hit") == 0)
        #expect(try h.loads() == ["success": 2, "failure": 0, "cancelled": 0])
        #expect(try h.metrics.expectMeter("webimage_inflight_loads").values == [1, 0, 1, 0])
        #expect(!h.manager.isRunning)
        var kinds: [String] = []
        for await event in events {
            switch event.kind {
            case .started: kinds.append("started")
            case .finished(let type): kinds.append("finished \(type)")
            default: break  // the cold load's response and progress
            }
            if kinds.count == 4 { break }
        }
        #expect(kinds == ["started", "finished none", "started", "finished memory"])
        #expect(h.tracer.finishedSpans.isEmpty)
        let warm = TelemetryHarness(disk: h.disk, tracing: false)
        #expect(try await warm.manager.loadImage(with: url, options: .waitStoreCache).cacheType == .disk)
        #expect(try warm.lookups("memory", "miss") == 1 && warm.lookups("memory", "hit") == 0)
        #expect(try warm.lookups("mockdatacache", "hit") == 1 && warm.lookups("mockdatacache", "miss") == 0)
        #expect(try await warm.manager.loadImage(with: url).cacheType == .memory)
        #expect(try warm.lookups("memory", "hit") == 1 && warm.lookups("mockdatacache", "hit") == 1)
        await h.manager.shutdown()
        await warm.manager.shutdown()
    }

    /// A caller whose task is cancelled gets 2002 from a memory hit too, counted as cancelled.
    @Test func aCancelledCallerGets2002FromAMemoryHit() async throws {
        let h = TelemetryHarness(tracing: false)
        let url = h.serve("fc.png")
        _ = try await h.manager.loadImage(with: url, options: .waitStoreCache)
        let manager = h.manager
        let code = await Task { () -> Int in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(ImageError) {
                _ = try await manager.loadImage(with: url)
                return 0
            } catch {
                return error.code.rawValue
            }
        }.value
        #expect(code == 2002)
        #expect(try h.loads() == ["success": 1, "failure": 0, "cancelled": 1])
        await h.manager.shutdown()
    }

    @Test func diskHitDecodesOnceAndIsCountedUnderTheTier() async throws {
        let seed = TelemetryHarness()
        let url = seed.serve("d.png")
        _ = try await seed.manager.loadImage(with: url, options: .waitStoreCache)
        await seed.manager.shutdown()
        let h = TelemetryHarness(disk: seed.disk)
        let hit = try await h.manager.loadImage(with: url, options: .waitStoreCache)
        #expect(hit.cacheType == .disk)
        #expect(h.loader.loadCount == 0)
        #expect(try h.loads() == ["success": 1, "failure": 0, "cancelled": 0])
        #expect(try h.lookups("memory", "miss") == 1 && h.lookups("memory", "hit") == 0)
        #expect(try h.lookups("mockdatacache", "hit") == 1 && h.lookups("mockdatacache", "miss") == 0)
        #expect(try h.count("webimage_download_bytes_total") == 0)
        #expect(try h.metrics.expectTimer("webimage_decode_duration_seconds", [("format", "mock-7")]).values.count == 1)
        #expect(h.spanNames.sorted() == ["webimage.cache.query", "webimage.decode", "webimage.load"])
        h.expectChildrenOfOneLoad()
        #expect(h.spans("webimage.cache.query").first?.attributes.string("webimage.cache.type") == "disk")
        #expect(h.quietAboveDebug)
        await h.manager.shutdown()
    }

    @Test func failureIsCountedTracedAndLoggedAtDebugWithItsCode() async throws {
        let h = TelemetryHarness()
        let url = URL(string: "mock://host/missing.png")!
        h.loader.register(url, error: ImageError(.badServerResponse, "404 Not Found", statusCode: 404))
        let error = await #expect(throws: ImageError.self) { try await h.manager.loadImage(with: url) }
        #expect(error?.code == .badServerResponse)
        #expect(try h.loads() == ["success": 0, "failure": 1, "cancelled": 0])
        #expect(try h.metrics.expectTimer("webimage_load_duration_seconds").values.count == 1)
        #expect(try h.metrics.expectMeter("webimage_inflight_loads").values == [1, 0])
        #expect(h.spanNames.sorted() == ["webimage.cache.query", "webimage.download", "webimage.load"])
        h.expectChildrenOfOneLoad()
        let load = try #require(h.spans("webimage.load").first)
        #expect(load.attributes.int("webimage.error.code") == 2001)
        #expect(load.status?.code == .error)
        let download = try #require(h.spans("webimage.download").first)
        #expect(download.attributes.int("webimage.error.code") == 2001)
        #expect(download.attributes.int("http.response.status_code") == 404)

        #expect(h.quietAboveDebug)
        let failures = h.logs.all.filter { $0.level == .debug && $0.metadata["webimage.error.code"] == "2001" }
        #expect(failures.count == 1)
        #expect(failures.first?.metadata["webimage.url"] == "mock://host/missing.png")
        #expect(failures.first?.metadata["webimage.key"] == "mock://host/missing.png")
        await h.manager.shutdown()
    }

    @Test func cancellationIsCountedApartFromFailures() async throws {
        let h = TelemetryHarness()
        let url = h.serve("c.png")
        h.loader.close()
        let manager = h.manager
        let task = Task { try await manager.loadImage(with: url) }
        #expect(await eventually { h.loader.waitingCount == 1 })
        task.cancel()
        guard case .failure(let error) = await task.result else {
            Issue.record("the cancelled load succeeded")
            return
        }
        #expect((error as? ImageError)?.code == .cancelled)
        #expect(try h.loads() == ["success": 0, "failure": 0, "cancelled": 1])
        #expect(try h.metrics.expectTimer("webimage_load_duration_seconds").values.isEmpty)
        #expect(try h.metrics.expectMeter("webimage_inflight_loads").values == [1, 0])
        let load = try #require(h.spans("webimage.load").first)
        #expect(load.attributes.int("webimage.error.code") == 2002)
        #expect(load.status == nil)
        // The shared download ends once its last caller left; its span is the load span's child.
        #expect(await eventually { h.spans("webimage.download").count == 1 })
        h.expectChildrenOfOneLoad()
        #expect(h.spans("webimage.download").first?.attributes.int("webimage.error.code") == 2002)
        #expect(h.quietAboveDebug)
        h.loader.open()
        await h.manager.shutdown()
    }

    @Test func joinedCallersAreCoalescedAndShareOneDownloadSpan() async throws {
        let h = TelemetryHarness()
        let url = h.serve("j.png")
        h.loader.close()
        let manager = h.manager
        let first = Task { try await manager.loadImage(with: url) }
        #expect(await eventually { h.loader.waitingCount == 1 })
        var thumbnail = ImageContext()
        thumbnail[.thumbnailPixelSize] = PixelSize(width: 10, height: 10)
        let second = Task { try await manager.loadImage(with: url) }
        let third = Task { try await manager.loadImage(with: url, context: thumbnail) }
        #expect(await eventually { (try? h.count("webimage_coalesced_total", [("stage", "load")])) == 2 })
        h.loader.open()
        _ = try await (first.value, second.value, third.value)
        #expect(try h.loads() == ["success": 3, "failure": 0, "cancelled": 0])
        #expect(h.spans("webimage.load").count == 3)
        let downloads = h.spans("webimage.download")
        #expect(downloads.count == 1)
        #expect(h.loader.loadCount == 1)
        let loadSpanIDs = Set(h.spans("webimage.load").map(\.spanID))
        #expect(downloads.allSatisfy { loadSpanIDs.contains($0.parentSpanID ?? "") })
        await h.manager.shutdown()
    }

    @Test func transformRunsInItsOwnSpan() async throws {
        let h = TelemetryHarness()
        let url = h.serve("t.png")
        var context = ImageContext()
        context[.imageTransformer] = MockTransformer(key: "Tint")
        _ = try await h.manager.loadImage(with: url, options: .waitStoreCache, context: context)
        h.expectChildrenOfOneLoad()
        let transform = try #require(h.spans("webimage.transform").first)
        #expect(transform.attributes.string("webimage.transformer") == "Tint")
        #expect(h.spans("webimage.transform").count == 1)
        await h.manager.shutdown()
    }

    @Test func theCallersSpanIsTheParentAndTheContextLoggerWins() async throws {
        let h = TelemetryHarness()
        let url = h.serve("p.png")
        let own = RecordingLogHandler.Store()
        var context = ImageContext()
        context[.logger] = Logger(label: "own", factory: { _ in RecordingLogHandler(store: own) })
        let outer = h.tracer.startSpan("request")
        try await ServiceContext.$current.withValue(outer.context) {
            _ = try await h.manager.loadImage(with: url, context: context)
        }
        outer.end()
        let load = try #require(h.spans("webimage.load").first)
        #expect(load.parentSpanID == outer.context.inMemorySpanContext?.spanID)
        #expect(own.all.contains { $0.message == "image loaded" })
        #expect(!h.logs.all.contains { $0.message == "image loaded" })
        await h.manager.shutdown()
    }

    @Test func aCorruptEntryRemovedIsAWarning() async throws {
        let h = TelemetryHarness(
            disk: MockDataCache(entries: ["mock://host/bad.png": Data("MOCKSIZE".utf8) + Data(count: 8)]))
        let url = h.serve("bad.png")
        _ = try await h.manager.loadImage(with: url, options: .waitStoreCache)
        let warnings = h.logs.all.filter { $0.level == .warning }
        #expect(warnings.count == 1)
        #expect(warnings.first?.metadata["webimage.key"] == "mock://host/bad.png")
        #expect(warnings.first?.metadata["webimage.error.code"] == "1001")
        await h.manager.shutdown()
    }
}

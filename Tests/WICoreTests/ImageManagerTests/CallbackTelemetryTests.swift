import Foundation
import InMemoryTracing
import Synchronization
import Testing
import Tracing
import WICore
import WITestSupport

/// The callback form of `loadImage` is observed like the async form: one `webimage.load` span with the same
/// children, `webimage_loads_total`, `webimage_load_duration_seconds` and the in-flight gauge.
@Suite struct CallbackTelemetryTests {
    /// Starts a callback-form load and waits for its completion; then waits for the load's own work to end (its
    /// metrics are recorded before the completion is called, its tracked task ends right after).
    func load(_ h: TelemetryHarness, _ url: URL, options: ImageOptions = []) async -> Result<ImageResult, ImageError> {
        let result = await withCheckedContinuation { continuation in
            h.manager.loadImage(with: url, options: options) { continuation.resume(returning: $0) }
        }
        await h.manager.waitUntilIdle()
        return result
    }

    @Test func coldLoadHasTheLoadSpanCountersAndGauge() async throws {
        let h = TelemetryHarness()
        let url = h.serve("cb.png")
        let result = try await load(h, url, options: .waitStoreCache).get()
        #expect(result.cacheType == .none)
        #expect(try h.loads() == ["success": 1, "failure": 0, "cancelled": 0])
        #expect(try h.metrics.expectTimer("webimage_load_duration_seconds").values.count == 1)
        #expect(try h.metrics.expectMeter("webimage_inflight_loads").values == [1, 0])
        #expect(
            h.spanNames.sorted() == [
                "webimage.cache.query", "webimage.cache.store", "webimage.decode",
                "webimage.download", "webimage.load",
            ])
        h.expectChildrenOfOneLoad()
        let span = try #require(h.spans("webimage.load").first)
        #expect(span.parentSpanID == nil)
        #expect(span.attributes.string("webimage.url") == "mock://host/cb.png")
        #expect(span.attributes.string("webimage.cache.type") == "none")
        #expect(h.logs.all.filter { $0.message == "image loaded" }.count == 1)
        #expect(h.quietAboveDebug)
        await h.manager.shutdown()
    }

    @Test func memoryHitIsOneLoadSpanWithOneQuery() async throws {
        let h = TelemetryHarness()
        let url = h.serve("cbm.png")
        _ = try await load(h, url, options: .waitStoreCache).get()
        h.tracer.clearFinishedSpans()
        let hit = try await load(h, url).get()
        #expect(hit.cacheType == .memory)
        #expect(try h.loads() == ["success": 2, "failure": 0, "cancelled": 0])
        #expect(try h.metrics.expectTimer("webimage_load_duration_seconds").values.count == 2)
        #expect(try h.metrics.expectMeter("webimage_inflight_loads").values == [1, 0, 1, 0])
        #expect(h.spanNames.sorted() == ["webimage.cache.query", "webimage.load"])
        h.expectChildrenOfOneLoad()
        #expect(h.spans("webimage.load").first?.attributes.string("webimage.cache.type") == "memory")
        await h.manager.shutdown()
    }

    @Test func failureIsCountedAndLoggedWithItsCode() async throws {
        let h = TelemetryHarness()
        let url = URL(string: "mock://host/cb-missing.png")!
        h.loader.register(url, error: ImageError(.badServerResponse, "404 Not Found", statusCode: 404))
        let result = await load(h, url)
        guard case .failure(let error) = result else {
            Issue.record("the load of a 404 succeeded")
            return
        }
        #expect(error.code == .badServerResponse)
        #expect(try h.loads() == ["success": 0, "failure": 1, "cancelled": 0])
        #expect(try h.metrics.expectTimer("webimage_load_duration_seconds").values.count == 1)
        #expect(try h.metrics.expectMeter("webimage_inflight_loads").values == [1, 0])
        #expect(h.spanNames.sorted() == ["webimage.cache.query", "webimage.download", "webimage.load"])
        h.expectChildrenOfOneLoad()
        let span = try #require(h.spans("webimage.load").first)
        #expect(span.attributes.int("webimage.error.code") == 2001)
        #expect(span.status?.code == .error)
        let failures = h.logs.all.filter { $0.level == .debug && $0.metadata["webimage.error.code"] == "2001" }
        #expect(failures.count == 1)
        #expect(h.quietAboveDebug)
        await h.manager.shutdown()
    }

    @Test func anInvalidURLIsAFailureInItsOwnSpan() async throws {
        let h = TelemetryHarness()
        let result = await withCheckedContinuation { continuation in
            h.manager.loadImage(with: nil) { continuation.resume(returning: $0) }
        }
        await h.manager.waitUntilIdle()
        guard case .failure(let error) = result else {
            Issue.record("a nil URL loaded")
            return
        }
        #expect(error.code == .invalidURL)
        #expect(try h.loads() == ["success": 0, "failure": 1, "cancelled": 0])
        #expect(h.spanNames == ["webimage.load"])
        #expect(h.spans("webimage.load").first?.attributes.int("webimage.error.code") == 1000)
        await h.manager.shutdown()
    }

    @Test func cancellingTheTokenCountsACancelledLoad() async throws {
        let h = TelemetryHarness()
        let url = h.serve("cbc.png")
        h.loader.close()
        let delivered = Mutex<[ImageError.Code]>([])
        let token = h.manager.loadImage(with: url) { result in
            if case .failure(let error) = result { delivered.withLock { $0.append(error.code) } }
        }
        #expect(await eventually { h.loader.waitingCount == 1 })
        #expect(token.cancel())
        await h.manager.waitUntilIdle()
        #expect(delivered.withLock { $0 } == [.cancelled])
        #expect(try h.loads() == ["success": 0, "failure": 0, "cancelled": 1])
        #expect(try h.metrics.expectTimer("webimage_load_duration_seconds").values.isEmpty)
        #expect(try h.metrics.expectMeter("webimage_inflight_loads").values == [1, 0])
        let span = try #require(h.spans("webimage.load").first)
        #expect(span.attributes.int("webimage.error.code") == 2002)
        #expect(span.status == nil)
        #expect(await eventually { h.spans("webimage.download").count == 1 })
        h.expectChildrenOfOneLoad()
        h.loader.open()
        await h.manager.shutdown()
    }

    @Test func aLoadRefusedAfterShutdownIsCountedLikeTheAsyncForm() async throws {
        let h = TelemetryHarness()
        let url = h.serve("cbr.png")
        await h.manager.shutdown()
        let codes = Codes()
        h.manager.loadImage(with: url) { codes.add($0) }
        #expect(codes.all == [1010])  // at once, before the call returned
        #expect(try h.loads() == ["success": 0, "failure": 1, "cancelled": 0])
        let refused = await #expect(throws: ImageError.self) { try await h.manager.loadImage(with: url) }
        #expect(refused?.code == .shutDown)
        // The async form's refusal: counted the same way, one more of each.
        #expect(try h.loads() == ["success": 0, "failure": 2, "cancelled": 0])
        #expect(try h.metrics.expectTimer("webimage_load_duration_seconds").values.count == 2)
        #expect(try h.metrics.expectMeter("webimage_inflight_loads").values == [1, 0, 1, 0])
        let spans = h.spans("webimage.load")
        #expect(spans.count == 2)
        #expect(spans.map { $0.attributes.int("webimage.error.code") } == [1010, 1010])
        #expect(spans.allSatisfy { $0.status?.code == .error })
        #expect(h.spanNames == ["webimage.load", "webimage.load"])
        let failures = h.logs.all.filter { $0.level == .debug && $0.metadata["webimage.error.code"] == "1010" }
        #expect(failures.count == 2)
        #expect(h.quietAboveDebug)
    }

    @Test func theCallersSpanIsTheParent() async throws {
        let h = TelemetryHarness()
        let url = h.serve("cbp.png")
        let outer = h.tracer.startSpan("request")
        let result = await ServiceContext.$current.withValue(outer.context) {
            await load(h, url)
        }
        outer.end()
        #expect((try? result.get())?.cacheType == ImageCacheType.none)
        let span = try #require(h.spans("webimage.load").first)
        #expect(span.parentSpanID == outer.context.inMemorySpanContext?.spanID)
        #expect(span.traceID == outer.context.inMemorySpanContext?.traceID)
        await h.manager.shutdown()
    }
}

import Foundation
import Synchronization
import Testing
import WICore
import WITestSupport

/// The async and callback forms of `loadImage` are adapters over one load path: the same load, made through
/// either, sends the same events in the same order and leaves the same telemetry (counters, timers, gauge, spans,
/// logs, cache lookups and shared-work statistics).
@Suite struct OneLoadPathTests {
    /// What one form left behind after a scenario, in comparable form.
    struct Trace: Equatable, CustomStringConvertible {
        var answers: [String] = []
        var events: [String] = []
        var loads: [String: Int64] = [:]
        var lookups: [String: Int64] = [:]
        var durations = 0
        var inflight: [Double] = []
        var spans: [String] = []
        var logs: [String] = []
        var statistics = ImageManager.Statistics(loads: 0, decodes: 0, transforms: 0)

        var description: String {
            "answers \(answers)\nevents \(events)\nloads \(loads)\nlookups \(lookups)\ndurations \(durations)\n"
                + "inflight \(inflight)\nspans \(spans)\nlogs \(logs)\nstatistics \(statistics)"
        }
    }

    enum Form { case async, callback }

    /// One step of a scenario: a load of `name` with `options` and `context`.
    struct Step {
        var name: String
        var options: ImageOptions = []
        var context = ImageContext()
    }

    static func describe(_ kind: ImageManager.Event.Kind) -> String {
        switch kind {
        case .started: "started"
        case .response(let status): "response \(status.map(String.init) ?? "-")"
        case .progress(let received, let expected): "progress \(received)/\(expected)"
        case .partialImage(let size): "partial \(size.width)x\(size.height)"
        case .finished(let type): "finished \(type)"
        case .httpCache(let outcome): "httpCache \(outcome)"
        case .failed(let error): "failed \(error.code.rawValue)"
        case .cancelled: "cancelled"
        }
    }

    static func describe(_ result: Result<ImageResult, ImageError>) -> String {
        switch result {
        case .success(let value):
            "\(value.cacheType) \(value.image.size.width)x\(value.image.size.height) \(value.image.flags.rawValue)"
        case .failure(let error): "error \(error.code.rawValue)"
        }
    }

    /// Runs `steps` one after the other through `form` on a fresh manager (a registered `missing` URL answers 404),
    /// and records everything the loads left.
    func run(_ steps: [Step], through form: Form) async throws -> Trace {
        let h = TelemetryHarness()
        h.loader.register(
            URL(string: "mock://host/missing.png")!,
            error: ImageError(.badServerResponse, "404 Not Found", statusCode: 404))
        for step in Set(steps.map(\.name)) where step != "missing.png" { _ = h.serve(step) }
        var trace = Trace()
        let stream = h.manager.events()
        let terminal = Mutex(0)
        let collected = Mutex<[String]>([])
        let collector = Task {
            for await event in stream {
                collected.withLock { $0.append(Self.describe(event.kind)) }
                switch event.kind {
                case .finished, .failed, .cancelled: terminal.withLock { $0 += 1 }
                default: break
                }
            }
        }
        for (index, step) in steps.enumerated() {
            let url = URL(string: "mock://host/\(step.name)")!
            let result: Result<ImageResult, ImageError>
            switch form {
            case .async:
                do {
                    result = .success(
                        try await h.manager.loadImage(with: url, options: step.options, context: step.context))
                } catch {
                    result = .failure(error)
                }
            case .callback:
                result = await withCheckedContinuation { continuation in
                    h.manager.loadImage(with: url, options: step.options, context: step.context) {
                        continuation.resume(returning: $0)
                    }
                }
            }
            trace.answers.append(Self.describe(result))
            await h.manager.waitUntilIdle()
            #expect(await eventually { terminal.withLock { $0 } == index + 1 })
        }
        collector.cancel()
        trace.events = collected.withLock { $0 }
        trace.loads = try h.loads()
        for tier in ["memory", "mockdatacache"] {
            for outcome in ["hit", "miss"] {
                trace.lookups["\(tier) \(outcome)"] = (try? h.lookups(tier, outcome)) ?? 0
            }
        }
        trace.durations = try h.metrics.expectTimer("webimage_load_duration_seconds").values.count
        trace.inflight = try h.metrics.expectMeter("webimage_inflight_loads").values
        trace.spans = h.spanNames
        trace.logs = h.logs.all.map { "\($0.level) \($0.message)" }
        trace.statistics = h.manager.statistics
        await h.manager.shutdown()
        return trace
    }

    /// A cold load, a memory hit, a thumbnail of the cached original, and a failure.
    var scenario: [Step] {
        var thumbnail = ImageContext()
        thumbnail[.thumbnailPixelSize] = PixelSize(width: 10, height: 10)
        return [
            Step(name: "a.png", options: .waitStoreCache),
            Step(name: "a.png"),
            Step(name: "a.png", options: .waitStoreCache, context: thumbnail),
            Step(name: "missing.png"),
        ]
    }

    @Test func bothFormsReportTheSameEventsAndTelemetry() async throws {
        let async = try await run(scenario, through: .async)
        let callback = try await run(scenario, through: .callback)
        #expect(async == callback, "async:\n\(async)\ncallback:\n\(callback)")
        // And what that is, exactly, so that both cannot be equally wrong.
        #expect(async.answers == ["none 40x20 0", "memory 40x20 0", "disk 10x5 2", "error 2001"])
        #expect(
            async.events == [
                "started", "progress 0/-1", "response 200", "progress 16/21", "progress 21/21", "finished none",
                "started", "finished memory",
                "started", "finished disk",
                "started", "progress 0/-1", "failed 2001",
            ])
        #expect(async.loads == ["success": 3, "failure": 1, "cancelled": 0])
        #expect(async.lookups == ["memory hit": 1, "memory miss": 3, "mockdatacache hit": 1, "mockdatacache miss": 3])
        #expect(async.durations == 4)
        #expect(async.inflight == [1, 0, 1, 0, 1, 0, 1, 0])
        #expect(async.statistics == ImageManager.Statistics(loads: 2, decodes: 2, transforms: 0))
        #expect(async.spans.filter { $0 == "webimage.load" }.count == 4)
        #expect(async.logs.filter { $0 == "trace image loaded" }.count == 3)
        #expect(async.logs.filter { $0.hasPrefix("debug image load failed") }.count == 1)
    }
}

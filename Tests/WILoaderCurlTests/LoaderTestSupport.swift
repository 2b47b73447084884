import Foundation
import Synchronization
import Testing
import WICore
import WILoaderCurl
import WITestServer

/// Collects what one load reported.
final class LoadRecorder: Sendable {
    private let state = Mutex<
        (events: [ImageLoading.Event], result: Result<ImageLoadResult, ImageError>?, completions: Int)
    >(([], nil, 0))

    var events: [ImageLoading.Event] { state.withLock { $0.events } }
    var result: Result<ImageLoadResult, ImageError>? { state.withLock { $0.result } }
    var completions: Int { state.withLock { $0.completions } }

    func record(_ event: ImageLoading.Event) {
        state.withLock {
            #expect($0.completions == 0, "an event arrived after the completion")
            $0.events.append(event)
        }
    }

    func complete(_ result: Result<ImageLoadResult, ImageError>) {
        state.withLock {
            $0.result = result
            $0.completions += 1
        }
    }

    /// The progress events, as (received, expected).
    var progress: [[Int64]] {
        events.compactMap { if case .progress(let r, let e) = $0 { [r, e] } else { nil } }
    }

    /// The partial-data chunks joined.
    var partialData: Data {
        events.reduce(into: Data()) { if case .partialData(let d) = $1 { $0.append(d) } }
    }

    /// Waits until the completion ran (at most `seconds`).
    func waitForCompletion(seconds: Double = 30) async -> Result<ImageLoadResult, ImageError>? {
        let deadline = Date().addingTimeInterval(seconds)
        while completions == 0 && Date() < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        return result
    }

    var errorCode: ImageError.Code? {
        if case .failure(let error) = result { error.code } else { nil }
    }
}

extension CurlImageLoader {
    /// Starts a callback-form load whose events and completion go to a new recorder.
    func start(_ request: ImageLoading.Request) -> (any ImageLoading.Operation, LoadRecorder) {
        let recorder = LoadRecorder()
        let operation = load(request, events: { recorder.record($0) }, completion: { recorder.complete($0) })
        return (operation, recorder)
    }

    func start(_ url: URL) -> (any ImageLoading.Operation, LoadRecorder) { start(ImageLoading.Request(url: url)) }

    /// Loads `url` and returns the outcome.
    func result(_ request: ImageLoading.Request) async -> Result<ImageLoadResult, ImageError> {
        do { return .success(try await load(request)) } catch { return .failure(error) }
    }

    func result(_ url: URL) async -> Result<ImageLoadResult, ImageError> {
        await result(ImageLoading.Request(url: url))
    }

    /// Waits until no easy handle is alive (handles are freed on the loader's thread just after completions).
    func waitUntilIdle(seconds: Double = 5) async -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        while statistics.liveEasyHandles != 0 && Date() < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        return statistics.liveEasyHandles
    }
}

extension Result where Failure == ImageError {
    var error: ImageError? { if case .failure(let e) = self { e } else { nil } }
    var value: Success? { if case .success(let v) = self { v } else { nil } }
}

/// A configuration for tests: every progress event (no throttling), and a low-speed window longer than any
/// response the tests hold back on purpose (the timeout tests set their own).
func testConfiguration(_ change: (inout CurlImageLoader.Configuration) -> Void = { _ in })
    -> CurlImageLoader.Configuration
{
    var configuration = CurlImageLoader.Configuration()
    configuration.lowSpeedTime = 90
    configuration.progressInterval = 0
    change(&configuration)
    return configuration
}

/// Deterministic bytes that look like nothing in particular.
func testBytes(_ count: Int, seed: UInt8 = 7) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &+ ($0 >> 8)) })
}

/// Polls `condition` until true or `seconds` pass. The bounds are generous: the whole suite runs in parallel on
/// two cores and can starve the test tasks for seconds; servers hold responses far longer than these bounds.
func eventually(seconds: Double = 20, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

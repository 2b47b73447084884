import Foundation
import Synchronization
import Testing
import WITestServer
import WITestSupport
import WebImage

/// `ImageManager.events()` over the real stack (curl loader, JPEG coder, test server): partial images while a
/// progressive JPEG arrives, and the failures a caller sees.
@Suite struct ManagerEventsTests {
    /// Collects one manager's events as text, from before the load starts.
    final class Recorder: Sendable {
        final class Lines: Sendable {
            let value = Mutex<[String]>([])
        }
        private let lines: Lines
        private let task: Task<Void, Never>

        init(_ manager: ImageManager) {
            let stream = manager.events()
            let lines = Lines()
            self.lines = lines
            task = Task {
                for await event in stream {
                    let line: String? =
                        switch event.kind {
                        case .started: "started"
                        case .response(let status): "response \(status.map(String.init) ?? "-")"
                        case .progress: nil  // throttled by the loader: how many is not the point here
                        case .partialImage(let size): "partial \(size.width)x\(size.height)"
                        case .finished(let type): "finished \(type)"
                        case .httpCache(let outcome): "httpCache \(outcome)"
                        case .failed(let error): "failed \(error.code.rawValue)"
                        case .cancelled: "cancelled"
                        }
                    if let line { lines.value.withLock { $0.append("\(event.url.path) \(line)") } }
                }
            }
        }

        var all: [String] { lines.value.withLock { $0 } }
        func contains(_ line: String) -> Bool { lines.value.withLock { $0.contains(line) } }
        func stop() { task.cancel() }
    }

    /// The 450x300 progressive JPEG is held by the server after 12,000 of its 39,456 bytes until a partial image
    /// of it was reported, then sent to the end: the partial image came from the first bytes only.
    @Test func aProgressiveJPEGServedInPiecesReportsPartialImagesThenFinishes() async throws {
        let jpeg = Fixtures.data("jpeg/progressive-nuke.jpg")
        #expect(jpeg.count == 39456)
        let gate = TestGate()
        let server = try await TestHTTPServer.start()
        server.route("/p.jpg") { _ in
            var response = TestResponse(body: jpeg, contentType: "image/jpeg").dripping(2000, every: 0.002)
            response.hold = (12000, gate)
            return response
        }
        let manager = try WebImage.makeManager(useDiskCache: false)
        let events = Recorder(manager)
        let done = Mutex<Result<ImageResult, ImageError>?>(nil)
        manager.loadImage(with: server.url("/p.jpg"), options: .progressiveLoad) { result in
            done.withLock { $0 = result }
        }
        #expect(await eventually { events.contains("/p.jpg partial 450x300") })
        #expect(server.exchanges("/p.jpg").count == 1)
        #expect(done.withLock { $0 } == nil)  // still held
        gate.open()
        #expect(await eventually { events.contains("/p.jpg finished none") })
        let image = try #require(try done.withLock { $0 }?.get().image)
        #expect(image.size == PixelSize(width: 450, height: 300))
        #expect(!image.flags.contains(.incremental))
        // Partial images (one or more, as the pieces happen to arrive) only between the response and the end.
        var seen = events.all
        seen.removeAll { $0 == "/p.jpg partial 450x300" }
        #expect(seen == ["/p.jpg started", "/p.jpg response 200", "/p.jpg finished none"])
        let all = events.all
        #expect(all.firstIndex(of: "/p.jpg partial 450x300") == 2)
        events.stop()
        await manager.shutdown()
    }

    /// A 404, a body that is not an image, and a connection cut mid-body each end with `.failed` and its code.
    @Test func failedLoadsEndWithFailedAndTheirCode() async throws {
        let jpeg = Fixtures.data("jpeg/progressive-nuke.jpg")
        let server = try await TestHTTPServer.start()
        server.route("/text") { _ in TestResponse(body: Data("not an image".utf8), contentType: "image/jpeg") }
        server.route("/cut.jpg") { _ in TestResponse(body: jpeg, contentType: "image/jpeg").cut(after: 5000) }
        let manager = try WebImage.makeManager(useDiskCache: false)
        let events = Recorder(manager)
        var codes: [Int] = []
        for path in ["/missing.jpg", "/text", "/cut.jpg"] {
            do {
                _ = try await manager.loadImage(with: server.url(path))
                codes.append(0)
            } catch {
                codes.append(error.code.rawValue)
            }
            #expect(await eventually { events.all.contains { $0.hasPrefix("\(path) failed") } })
        }
        #expect(codes == [2001, 1004, 2005])
        #expect(
            events.all == [
                "/missing.jpg started", "/missing.jpg response 404", "/missing.jpg failed 2001",
                "/text started", "/text response 200", "/text failed 1004",
                "/cut.jpg started", "/cut.jpg response 200", "/cut.jpg failed 2005",
            ])
        events.stop()
        await manager.shutdown()
    }
}

/// Polls `condition` until it holds (at most 30 s: the suite shares two cores); returns at once when it holds.
private func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(30)
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

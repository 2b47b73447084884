import Foundation
import ServiceLifecycle
import Synchronization
import Testing
import WebImage
@testable import WIServe
@testable import WIServeCore

/// Graceful shutdown on a live server: a request in flight when shutdown starts still gets its image, the server
/// then refuses new connections, the manager is shut down (new loads fail with 1010) and the service group returns.
/// The client is the project's own curl loader (a plain HTTP GET of an image).
@Suite(.serialized) struct ServeShutdownTests {
    typealias H = ServeHarness

    @Test func requestInFlightFinishesThenTheManagerShutsDown() async throws {
        let h = try await ServeHarness()
        let server = try await ImageServer(configuration: H.configuration { $0.port = 0 })
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let group = server.makeServiceGroup(onServerRunning: { port in portSink.yield(port) })
        let client = try CurlImageLoader()
        let port = try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var portIterator = ports.makeAsyncIterator()
            let port = try #require(await portIterator.next())
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/unsafe/10x10/\(h.url("/gated.png"))"))
            async let response = client.load(ImageLoading.Request(url: url))
            var arrivals = h.arrivals.makeAsyncIterator()
            _ = await arrivals.next()  // the request is in the pipeline, its source held by the origin
            await group.triggerGracefulShutdown()
            h.gate.open()
            let answer = try await response
            #expect(answer.response?.statusCode == 200)
            let image = try H.coders.decode(answer.data, options: DecodeOptions())
            #expect(image.size == PixelSize(width: 10, height: 10))
            try await tasks.waitForAll()  // the group returned: the server stopped, then the manager shut down
            return port
        }
        // A new request finds no server.
        do {
            _ = try await client.load(
                ImageLoading.Request(url: try #require(URL(string: "http://127.0.0.1:\(port)/healthz"))))
            Issue.record("a request after shutdown was answered")
        } catch {
            #expect((error as? ImageError)?.code == .networkError)
        }
        await client.shutdown()
        do {
            _ = try await server.manager.loadImage(with: URL(string: h.url("/stripes.png")))
            Issue.record("a load after shutdown succeeded")
        } catch {
            #expect(error.code == .shutDown)
        }
        await h.origin.stop()
    }
}

import Foundation
import Testing
import WICore
import WILoaderCurl
import WITestServer

@Suite struct CurlLoaderCoalescingTests {
    @Test func hundredCallersShareOneRequest() async throws {
        let server = try await TestHTTPServer.start()
        let body = testBytes(20_000)
        server.route("/shared") { _ in
            // every caller joins while the transfer runs
            TestResponse(body: body, contentType: "image/png").delayed(by: 0.2)
        }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        let loads = (0..<100).map { _ in loader.start(server.url("/shared")) }
        for (_, recorder) in loads {
            let result = await recorder.waitForCompletion()
            #expect(result?.value?.data == body)
            #expect(recorder.completions == 1)
        }
        #expect(server.requestCount("/shared") == 1)
        #expect(loader.statistics.transfersStarted == 1)
        #expect(await loader.waitUntilIdle() == 0)
    }

    @Test func cancellingOneCallerLeavesTheOther() async throws {
        let server = try await TestHTTPServer.start()
        let body = testBytes(4000)
        server.route("/two") { _ in
            TestResponse(body: body, contentType: "image/png").dripping(1000, every: 0.05)
        }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        let (first, firstRecorder) = loader.start(server.url("/two"))
        let (_, secondRecorder) = loader.start(server.url("/two"))
        first.cancel()
        first.cancel()  // idempotent
        #expect(await firstRecorder.waitForCompletion()?.error?.code == .cancelled)
        #expect(await secondRecorder.waitForCompletion()?.value?.data == body)
        #expect(firstRecorder.completions == 1)
        #expect(server.requestCount("/two") == 1)
    }

    @Test func cancellingEveryCallerStopsTheTransfer() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/endless") { _ in
            TestResponse(body: testBytes(1_000_000), contentType: "image/png").dripping(2000, every: 0.1)
        }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        let loads = (0..<3).map { _ in loader.start(server.url("/endless")) }
        #expect(await eventually { loads.allSatisfy { $0.1.progress.count >= 3 } })  // the body is flowing
        #expect(server.connections.closed == 0)
        loads.forEach { $0.0.cancel() }
        for (_, recorder) in loads { #expect(await recorder.waitForCompletion()?.error?.code == .cancelled) }
        #expect(await eventually { server.connections.closed == 1 })  // libcurl dropped the connection
        #expect(await loader.waitUntilIdle() == 0)
        #expect(loads.allSatisfy { $0.1.completions == 1 })
    }

    @Test func cancellingAQueuedLoadNeverSendsIt() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/slow") { _ in
            TestResponse(body: Data([1]), contentType: "image/png").delayed(by: 0.3)
        }
        server.route("/queued") { _ in TestResponse(body: Data([2]), contentType: "image/png") }
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.maxConcurrentTransfers = 1 })
        let (_, slow) = loader.start(server.url("/slow"))
        let (queued, queuedRecorder) = loader.start(server.url("/queued"))
        queued.cancel()
        #expect(await queuedRecorder.waitForCompletion()?.error?.code == .cancelled)
        #expect(await slow.waitForCompletion()?.value?.data == Data([1]))
        #expect(server.requestCount("/queued") == 0)
    }

    @Test func asyncLoadCancelsWithItsTask() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/hang") { _ in
            TestResponse(body: testBytes(100_000), contentType: "image/png").dripping(1000, every: 1)
        }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        let task = Task { await loader.result(server.url("/hang")) }
        #expect(await eventually { server.requestCount("/hang") == 1 })
        task.cancel()
        #expect(await task.value.error?.code == .cancelled)
    }

    @Test func releasingTheLoaderCancelsItsLoads() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/forever") { _ in
            TestResponse(body: testBytes(100_000), contentType: "image/png").dripping(1000, every: 1)
        }
        var loader: CurlImageLoader? = try CurlImageLoader(configuration: testConfiguration())
        let (_, recorder) = try #require(loader).start(server.url("/forever"))
        #expect(await eventually { server.requestCount("/forever") == 1 })
        loader = nil
        #expect(await recorder.waitForCompletion()?.error?.code == .cancelled)
    }
}

import Foundation
import Testing
import WICore
import WILoaderCurl
import WITestServer

@Suite struct CurlLoaderProgressTests {
    @Test func progressRunsFromStartToEnd() async throws {
        let server = try await TestHTTPServer.start()
        let body = testBytes(3000)
        server.route("/p") { _ in
            TestResponse(body: body, contentType: "image/png").dripping(1000, every: 0.1)
        }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        let (_, recorder) = loader.start(server.url("/p"))
        #expect(await recorder.waitForCompletion()?.value?.data == body)
        // Start, head, then one per chunk (libcurl may hand over two drips at once on a busy machine).
        let progress = recorder.progress
        #expect(progress.prefix(2) == [[0, -1], [0, 3000]])
        #expect(progress.last == [3000, 3000])
        #expect(progress.count >= 3 && progress.count <= 5)
        #expect(progress.dropFirst(2).allSatisfy { $0[0] % 1000 == 0 && $0[1] == 3000 })
        #expect(zip(progress.dropFirst(2), progress.dropFirst(3)).allSatisfy { $0[0] < $1[0] })
        guard case .response(let head) = recorder.events[1] else {
            Issue.record("no head second")
            return
        }
        #expect(head.statusCode == 200)
        #expect(recorder.partialData.isEmpty)  // not asked for
    }

    @Test func progressIsThrottledButEndsWithTheTotal() async throws {
        let server = try await TestHTTPServer.start()
        let body = testBytes(2000)
        server.route("/t") { _ in
            TestResponse(body: body, contentType: "image/png", framing: .chunked(100)).dripping(100, every: 0.01)
        }
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.progressInterval = 10 })
        let (_, recorder) = loader.start(server.url("/t"))
        _ = await recorder.waitForCompletion()
        // Start, head, the first chunk (the interval starts there), and the final count.
        let progress = recorder.progress
        #expect(progress.count == 4)
        #expect(progress.prefix(2) == [[0, -1], [0, -1]])
        #expect(progress[2][0] > 0 && progress[2][0] < 2000)
        #expect(progress.last == [2000, -1])
    }

    @Test func partialDataArrivesChunkByChunk() async throws {
        let server = try await TestHTTPServer.start()
        let body = testBytes(5000)
        let gate = TestGate()
        server.route("/progressive") { _ in
            var response = TestResponse(body: body, contentType: "image/png", framing: .chunked(1000))
            response.drip = (1000, 0.05)
            response.hold = (afterBytes: 2000, gate: gate)  // the late caller joins while the body is held
            return response
        }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        let request = ImageLoading.Request(url: server.url("/progressive"), options: [.progressiveLoad])
        let (_, recorder) = loader.start(request)
        #expect(await eventually { recorder.partialData.count == 2000 })
        let late = loader.start(request).1  // joins mid-transfer: gets what arrived so far in one chunk
        #expect(await eventually { late.partialData.count == 2000 })
        gate.open()
        #expect(await recorder.waitForCompletion()?.value?.data == body)
        #expect(await late.waitForCompletion()?.value?.data == body)
        let chunks = recorder.events.compactMap { if case .partialData(let d) = $0 { d.count } else { nil } }
        #expect(chunks.count >= 3 && chunks.allSatisfy { $0 % 1000 == 0 })  // chunk by chunk
        #expect(recorder.partialData == body)
        #expect(late.partialData == body)
        #expect(server.requestCount("/progressive") == 1)
    }
}

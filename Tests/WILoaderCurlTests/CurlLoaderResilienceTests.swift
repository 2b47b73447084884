import Foundation
import Synchronization
import Testing
import WICore
import WILoaderCurl
import WITestServer

@Suite struct CurlLoaderResilienceTests {
    @Test func aDripFeedFailsTheLowSpeedLimit() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/drip") { _ in
            TestResponse(body: testBytes(10_000), contentType: "image/png").dripping(10, every: 0.1)  // 100 B/s
        }
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.lowSpeedTime = 1 })
        let start = Date()
        let error = try #require(await loader.result(server.url("/drip")).error)
        #expect(error.code == .timedOut)
        #expect(error.message.hasPrefix("curl error 28: "))
        #expect(Date().timeIntervalSince(start) < 30)  // the whole body would take 100 s
    }

    @Test func theTotalTimeoutStopsASlowServer() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/late") { _ in
            TestResponse(body: Data([1]), contentType: "image/png").delayed(by: 2)
        }
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.totalTimeout = 0.3 })
        #expect(await loader.result(server.url("/late")).error?.code == .timedOut)
    }

    @Test func aBodyCutShortIsANetworkError() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/reset") { _ in
            TestResponse(body: testBytes(10_000), contentType: "image/png").cut(after: 4000)
        }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        let error = try #require(await loader.result(server.url("/reset")).error)
        #expect(error.code == .networkError)
        #expect(error.message.hasPrefix("curl error 18: "))  // CURLE_PARTIAL_FILE
    }

    @Test func resumesACancelledTransferWithRangeAndIfRange() async throws {
        let server = try await TestHTTPServer.start()
        let body = testBytes(40_000)
        let etag = "\"v1\""
        server.route("/big") { request in
            var response = TestResponse.resource(body, etag: etag, request: request)
            if request.headers["range"] == nil { response.drip = (6000, 60) }  // 6000 bytes, then a long pause
            return response
        }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        let (first, recorder) = loader.start(server.url("/big"))
        #expect(await eventually { (recorder.progress.last?.first ?? 0) >= 6000 })
        first.cancel()
        #expect(await recorder.waitForCompletion()?.error?.code == .cancelled)
        #expect(await loader.waitUntilIdle() == 0)
        let (_, second) = loader.start(server.url("/big"))
        let result = try #require(await second.waitForCompletion()?.value)
        #expect(result.data == body)
        #expect(result.response?.statusCode == 206)
        #expect(result.response?.expectedContentLength == 40_000)
        let resumed = try #require(server.requests("/big").last)
        #expect(server.requestCount("/big") == 2)
        #expect(resumed.headers["if-range"] == etag)
        let offset = try #require(resumed.headers["range"].flatMap { Int($0.dropFirst(6).dropLast()) })
        #expect(offset == 6000)
        #expect(second.progress.first == [0, -1])
        #expect(second.progress[1] == [Int64(offset), 40_000])
        #expect(second.progress.last == [40_000, 40_000])
    }

    @Test func restartsWhenTheResourceChanged() async throws {
        let server = try await TestHTTPServer.start()
        let version = Mutex(1)
        server.route("/changing") { request in
            let v = version.withLock { $0 }
            var response = TestResponse.resource(testBytes(20_000, seed: UInt8(v)), etag: "\"v\(v)\"", request: request)
            if request.headers["range"] == nil { response.drip = (4000, 60) }
            return response
        }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        let (first, recorder) = loader.start(server.url("/changing"))
        #expect(await eventually { (recorder.progress.last?.first ?? 0) >= 4000 })
        first.cancel()
        _ = await recorder.waitForCompletion()
        version.withLock { $0 = 2 }
        let result = await loader.result(server.url("/changing"))
        #expect(result.value?.data == testBytes(20_000, seed: 2))  // If-Range failed: the whole new body
        #expect(result.value?.response?.statusCode == 200)
        #expect(server.requests("/changing").last?.headers["if-range"] == "\"v1\"")
    }

    @Test func retriesTransientFailuresWithBackoff() async throws {
        let server = try await TestHTTPServer.start()
        let failures = Mutex(2)
        server.route("/flaky") { _ in
            let fail = failures.withLock { f in
                defer { f -= 1 }
                return f > 0
            }
            return fail
                ? TestResponse(status: 503, body: Data("busy".utf8), contentType: "text/plain")
                : TestResponse(body: Data([5]), contentType: "image/png")
        }
        let policy = CurlImageLoader.RetryPolicy(maximumRetries: 3, initialDelay: 0.05)
        #expect(policy.delay(beforeRetry: 1) == 0.05)
        #expect(policy.delay(beforeRetry: 3) == 0.2)
        #expect(
            CurlImageLoader.RetryPolicy(maximumRetries: 9, initialDelay: 1, maximumDelay: 5).delay(beforeRetry: 9) == 5)
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.retryPolicy = policy })
        let start = Date()
        #expect(await loader.result(server.url("/flaky")).value?.data == Data([5]))
        #expect(Date().timeIntervalSince(start) >= 0.15)  // 0.05 + 0.1
        #expect(server.requestCount("/flaky") == 3)

        server.route("/gone") { _ in TestResponse(status: 404, body: Data("x".utf8), contentType: "text/plain") }
        #expect(await loader.result(server.url("/gone")).error?.statusCode == 404)
        #expect(server.requestCount("/gone") == 1)  // not retryable

        let noRetry = try CurlImageLoader(configuration: testConfiguration())
        failures.withLock { $0 = 1 }
        #expect(await noRetry.result(server.url("/flaky")).error?.statusCode == 503)
        #expect(server.requestCount("/flaky") == 4)
    }

    @Test func retriesRefusedConnections() async throws {
        let server = try await TestHTTPServer.start()
        let port = server.port
        await server.stop()
        let loader = try CurlImageLoader(
            configuration: testConfiguration {
                $0.retryPolicy = .init(maximumRetries: 2, initialDelay: 0.01)
            })
        #expect(await loader.result(URL(string: "http://127.0.0.1:\(port)/x")!).error?.code == .networkError)
        #expect(loader.statistics.transfersStarted == 3)
    }
}

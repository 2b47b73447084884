import Foundation
import Testing
import WICore
import WILoaderCurl
import WITestServer

@Suite struct CurlLoaderBasicTests {
    @Test func loadsBodyHeadAndMetrics() async throws {
        let server = try await TestHTTPServer.start()
        let body = testBytes(5000)
        server.route("/a.png") { _ in TestResponse(headers: [("X-Test", "1")], body: body, contentType: "image/png") }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        let result = try #require(await loader.result(server.url("/a.png")).value)
        #expect(result.data == body)
        let head = try #require(result.response)
        #expect(head.statusCode == 200)
        #expect(head.mimeType == "image/png")
        #expect(head.headers["x-test"] == "1")
        #expect(head.expectedContentLength == 5000)
        #expect(head.url == server.url("/a.png"))
        let metrics = try #require(result.metrics)
        #expect(metrics.httpVersion == "1.1")
        #expect(metrics.remoteAddress == "127.0.0.1")
        #expect(metrics.bytesReceived == 5000)
        #expect(metrics.redirectCount == 0)
        #expect(metrics.totalDuration > 0 && metrics.totalDuration >= metrics.timeToFirstByte)
        #expect(await loader.waitUntilIdle() == 0)
        #expect(loader.statistics.transfersStarted == 1)
    }

    @Test func sendsAcceptUserAgentAndCustomHeaders() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/h") { _ in TestResponse(body: Data([1]), contentType: "image/png") }
        let configuration = testConfiguration {
            $0.accept = CurlImageLoader.Configuration.acceptHeader(for: [.avif, .webp, .png, .webp])
            $0.headers = ["X-App": "tests", "X-Both": "configuration"]
        }
        let loader = try CurlImageLoader(configuration: configuration)
        let request = ImageLoading.Request(url: server.url("/h"), headers: ["X-Both": "request"])
        _ = await loader.result(request)
        let seen = try #require(server.requests("/h").first)
        #expect(seen.headers["accept"] == "image/avif,image/webp,image/png,image/*,*/*;q=0.8")
        #expect(seen.headers["user-agent"] == "WebImage/\(CurlImageLoader.libraryVersion) libcurl/7.88.1")
        #expect(seen.headers["x-app"] == "tests")
        #expect(seen.headers["x-both"] == "request")
        #expect(seen.headers["accept-encoding"]?.contains("gzip") == true)
        #expect(CurlImageLoader.Configuration().accept == "image/*,*/*;q=0.8")
    }

    @Test func decodesGzipChunkedAndCloseDelimitedBodies() async throws {
        let server = try await TestHTTPServer.start()
        let body = testBytes(70_000)
        server.route("/gzip") { _ in .gzip(body) }
        server.route("/chunked") { _ in TestResponse(body: body, contentType: "image/png", framing: .chunked(1000)) }
        server.route("/close") { _ in TestResponse(body: body, contentType: "image/png", framing: .untilClose) }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        for path in ["/gzip", "/chunked", "/close"] {
            let result = await loader.result(server.url(path))
            #expect(result.value?.data == body, "\(path)")
        }
        let gzip = try #require(await loader.result(server.url("/gzip")).value?.response)
        #expect(gzip.expectedContentLength == -1)  // the length on the wire is not the decoded length
    }

    @Test func validatesInSDWebImageOrder() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/404") { _ in TestResponse(status: 404, body: Data("no".utf8), contentType: "image/png") }
        server.route("/text") { _ in TestResponse(body: Data("hi".utf8), contentType: "text/html; charset=utf-8") }
        server.route("/304") { _ in TestResponse(status: 304) }
        server.route("/empty") { _ in TestResponse(contentType: "image/png") }
        server.route("/404-text") { _ in TestResponse(status: 404, body: Data("no".utf8), contentType: "text/html") }
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.acceptableContentTypes = ["image/*"] })
        let notFound = try #require(await loader.result(server.url("/404")).error)
        #expect(notFound.code == .badServerResponse)
        #expect(notFound.statusCode == 404)
        #expect(await loader.result(server.url("/404-text")).error?.code == .badServerResponse)  // status first
        #expect(await loader.result(server.url("/text")).error?.code == .invalidDownloadContentType)
        #expect(await loader.result(server.url("/304")).error?.code == .cacheNotModified)
        #expect(await loader.result(server.url("/empty")).error?.code == .badImageData)
        let strict = try CurlImageLoader(configuration: testConfiguration { $0.acceptableStatusCodes = [200] })
        server.route("/203") { _ in TestResponse(status: 203, body: Data([1]), contentType: "image/png") }
        #expect(await strict.result(server.url("/203")).error?.statusCode == 203)
        #expect(await loader.result(server.url("/203")).value?.data == Data([1]))
        #expect(await loader.waitUntilIdle() == 0)
    }

    @Test func revalidatesWithTheCachedValidators() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/v") { request in .resource(Data([4, 2]), etag: "\"e1\"", request: request) }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        var request = ImageLoading.Request(url: server.url("/v"))
        request.cachedETag = "\"e1\""
        request.cachedLastModified = "Sun, 22 Nov 2026 00:00:00 GMT"
        // A 304 to a conditional request is its answer: no bytes, the head says 304 and repeats the validator.
        let notModified = try #require(await loader.result(request).value)
        #expect(notModified.data.isEmpty)
        #expect(notModified.response?.statusCode == 304)
        #expect(notModified.response?.headers["etag"] == "\"e1\"")
        let seen = try #require(server.requests("/v").first)
        #expect(seen.headers["if-none-match"] == "\"e1\"")
        #expect(seen.headers["if-modified-since"] == "Sun, 22 Nov 2026 00:00:00 GMT")
        request.cachedETag = "\"old\""
        #expect(await loader.result(request).value?.data == Data([4, 2]))
        // A request without validators after them sends the shared default headers only.
        #expect(await loader.result(server.url("/v")).value?.data == Data([4, 2]))
        let seenRequests = server.requests("/v")
        #expect(seenRequests.count == 3)
        let plain = try #require(seenRequests.last)
        #expect(plain.headers["if-none-match"] == nil)
        #expect(plain.headers["if-modified-since"] == nil)
        #expect(plain.headers["accept"] == CurlImageLoader.Configuration().accept)
        // A 304 to a request without validators: nothing is cached to keep, SDWebImage's 1002.
        server.route("/always-304") { _ in TestResponse(status: 304) }
        let error = try #require(await loader.result(server.url("/always-304")).error)
        #expect(error.code == .cacheNotModified)
        #expect(error.statusCode == 304)
    }

    @Test func blocksOnlyPermanentFailures() throws {
        let loader = try CurlImageLoader()
        let url = URL(string: "http://example.com/a.png")!
        let blocked: [ImageError.Code] = [
            .invalidURL, .badImageData, .schemeNotAllowed, .addressNotAllowed,
            .tooManyRedirects, .bodyTooLarge, .fileNotReadable,
        ]
        let notBlocked: [ImageError.Code] = [
            .cancelled, .networkError, .timedOut, .badServerResponse,
            .invalidDownloadResponse, .invalidDownloadContentType, .cacheNotModified,
        ]
        for code in blocked { #expect(loader.shouldBlockFailedURL(url, error: ImageError(code, "")), "\(code)") }
        for code in notBlocked { #expect(!loader.shouldBlockFailedURL(url, error: ImageError(code, "")), "\(code)") }
        #expect(!loader.shouldBlockFailedURL(url, error: ImageError(.badServerResponse, "", statusCode: 404)))
    }

    @Test func refusesConnectionsToClosedPortsAsNetworkErrors() async throws {
        let server = try await TestHTTPServer.start()
        let port = server.port
        await server.stop()
        let loader = try CurlImageLoader(configuration: testConfiguration())
        let error = try #require(await loader.result(URL(string: "http://127.0.0.1:\(port)/x")!).error)
        #expect(error.code == .networkError)
        #expect(error.message.hasPrefix("curl error 7: "))
    }
}

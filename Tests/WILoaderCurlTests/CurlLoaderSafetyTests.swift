import Foundation
import Testing
import WICore
import WILoaderCurl
import WITestServer
import WITestSupport

@Suite struct CurlLoaderSafetyTests {
    @Test func capsTheBodySizeWhileStreaming() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/announced") { _ in TestResponse(body: testBytes(5000), contentType: "image/png") }
        server.route("/streamed") { _ in
            TestResponse(body: testBytes(5000), contentType: "image/png", framing: .chunked(500))
        }
        server.route("/fits") { _ in
            TestResponse(body: testBytes(1000), contentType: "image/png", framing: .chunked(500))
        }
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.maximumBodySize = 1000 })
        #expect(await loader.result(server.url("/announced")).error?.code == .bodyTooLarge)
        let (_, streamed) = loader.start(server.url("/streamed"))
        #expect(await streamed.waitForCompletion()?.error?.code == .bodyTooLarge)
        #expect(streamed.progress.allSatisfy { $0[0] <= 1000 })
        #expect(await loader.result(server.url("/fits")).value?.data.count == 1000)
        #expect(CurlImageLoader.Configuration().maximumBodySize == 64 << 20)
    }

    /// 16 MiB of zeros: 16 KB on the wire with gzip, 530 bytes with zstd, 27 with brotli (libcurl decodes all three).
    @Test(arguments: [("gzip", "gz"), ("br", "br"), ("zstd", "zst")])
    func capsACompressionBombByItsDecodedSize(encoding: String, fileExtension: String) async throws {
        let bomb = Fixtures.data("bombs/zeros-16MiB.\(fileExtension)")
        let server = try await TestHTTPServer.start()
        server.route("/bomb") { _ in
            TestResponse(headers: [("Content-Encoding", encoding)], body: bomb, contentType: "image/png")
        }
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.maximumBodySize = 1 << 20 })
        let (_, recorder) = loader.start(server.url("/bomb"))
        #expect(await recorder.waitForCompletion()?.error?.code == .bodyTooLarge)
        #expect(recorder.progress.allSatisfy { $0[0] <= 1 << 20 })
        #expect(await loader.waitUntilIdle() == 0)
        let roomy = try CurlImageLoader(configuration: testConfiguration { $0.maximumBodySize = 16 << 20 })
        #expect(await roomy.result(server.url("/bomb")).value?.data == Data(count: 16 << 20))
    }

    @Test func limitsRedirects() async throws {
        let server = try await TestHTTPServer.start()
        for hop in 0..<3 { server.route("/hop\(hop)") { _ in .redirect(to: "/hop\(hop + 1)") } }
        server.route("/hop3") { _ in TestResponse(body: Data([3]), contentType: "image/png") }
        server.route("/loop") { _ in .redirect(to: "/loop", status: 301) }
        server.route("/to-file") { _ in .redirect(to: "file:///etc/passwd") }
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.maximumRedirects = 3 })
        let followed = try #require(await loader.result(server.url("/hop0")).value)
        #expect(followed.data == Data([3]))
        #expect(followed.metrics?.redirectCount == 3)
        #expect(followed.response?.url == server.url("/hop3"))
        #expect(await loader.result(server.url("/loop")).error?.code == .tooManyRedirects)
        #expect(server.requestCount("/loop") == 4)
        #expect(await loader.result(server.url("/to-file")).error?.code == .schemeNotAllowed)
        let strict = try CurlImageLoader(configuration: testConfiguration { $0.maximumRedirects = 2 })
        #expect(await strict.result(server.url("/hop0")).error?.code == .tooManyRedirects)
        #expect(CurlImageLoader.Configuration().maximumRedirects == 10)
    }

    /// libcurl may follow a redirect only to an allowed scheme (here http alone: `CURLOPT_REDIR_PROTOCOLS_STR`).
    @Test func followsRedirectsOnlyToAllowedSchemes() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a") { _ in TestResponse(body: Data([1, 2]), contentType: "image/png") }
        server.route("/to-http") { _ in .redirect(to: "/a") }
        server.route("/to-https") { _ in .redirect(to: "https://127.0.0.1:\(server.port)/a") }
        let httpOnly = try CurlImageLoader(configuration: testConfiguration { $0.allowedSchemes = ["http"] })
        #expect(await httpOnly.result(server.url("/to-http")).value?.data == Data([1, 2]))
        #expect(await httpOnly.result(server.url("/to-https")).error?.code == .schemeNotAllowed)
        #expect(server.requestCount("/to-https") == 1)
        #expect(server.requestCount("/a") == 1)
    }

    @Test func refusesSchemesOutsideTheAllowedSet() async throws {
        let loader = try CurlImageLoader(configuration: testConfiguration())
        for url in ["ftp://example.com/a.png", "file:///etc/hosts", "data:image/png;base64,AA==", "gopher://x/"] {
            #expect(!loader.canLoad(URL(string: url)!))
            #expect(await loader.result(URL(string: url)!).error?.code == .schemeNotAllowed, "\(url)")
        }
        #expect(loader.canLoad(URL(string: "https://example.com/a.png")!))
        let httpsOnly = try CurlImageLoader(configuration: testConfiguration { $0.allowedSchemes = ["https"] })
        #expect(await httpsOnly.result(URL(string: "http://127.0.0.1:9/a")!).error?.code == .schemeNotAllowed)
    }

    @Test(arguments: [
        "http://127.0.0.1:1/a", "http://10.1.2.3:1/a", "http://169.254.169.254/latest/meta-data/",
        "http://[::1]:1/a", "http://100.64.0.1:1/a", "http://192.168.1.1:1/a", "http://0.0.0.0:1/a",
        "http://[::ffff:127.0.0.1]:1/a", "http://[fe80::1]:1/a", "http://224.0.0.1:1/a",
        // Other spellings of loopback: decimal, octal, hexadecimal, shortened.
        "http://2130706433:1/a", "http://0177.0.0.1:1/a", "http://0x7f000001:1/a", "http://127.1:1/a",
    ])
    func theAddressPolicyRefusesInternalAddresses(_ url: String) async throws {
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.addressPolicy = .publicOnly() })
        let error = try #require(await loader.result(URL(string: url)!).error)
        #expect(error.code == .addressNotAllowed, "\(url): \(error)")
        #expect(loader.statistics.connectionsOpened == 0)
        #expect(await loader.waitUntilIdle() == 0)
    }

    @Test func theAddressPolicyChecksNamesAndEveryRedirect() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a") { _ in TestResponse(body: Data([1]), contentType: "image/png") }
        server.route("/bounce") { _ in .redirect(to: "http://127.0.0.2:\(server.port)/a") }
        let open = try CurlImageLoader(configuration: testConfiguration())
        #expect(await open.result(server.url("/a")).value?.data == Data([1]))
        let guarded = try CurlImageLoader(configuration: testConfiguration { $0.addressPolicy = .publicOnly() })
        #expect(await guarded.result(server.url("/a")).error?.code == .addressNotAllowed)
        let localhost = URL(string: "http://localhost:\(server.port)/a")!  // resolves to loopback
        #expect(await guarded.result(localhost).error?.code == .addressNotAllowed)
        #expect(server.requestCount("/a") == 1)
        // The first hop is allowed (an exception stands in for a public server); the redirect into loopback is not.
        let excepted = try CurlImageLoader(
            configuration: testConfiguration {
                $0.addressPolicy = .publicOnly(exceptions: ["127.0.0.1"])
            })
        #expect(await excepted.result(server.url("/a")).value?.data == Data([1]))
        let error = try #require(await excepted.result(server.url("/bounce")).error)
        #expect(error.code == .addressNotAllowed)
        #expect(error.message.contains("127.0.0.2"))
        #expect(server.requestCount("/bounce") == 1)
    }

    @Test func leavesNoEasyHandleBehind() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/ok") { _ in TestResponse(body: Data([1]), contentType: "image/png") }
        server.route("/slow") { _ in
            TestResponse(body: testBytes(50_000), contentType: "image/png").dripping(1000, every: 0.02)
        }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        let loads = (0..<20).map { index in loader.start(server.url(index % 2 == 0 ? "/ok" : "/slow?\(index)")) }
        for (index, load) in loads.enumerated() where index % 2 == 1 { load.0.cancel() }
        for (_, recorder) in loads { _ = await recorder.waitForCompletion() }
        #expect(loads.allSatisfy { $0.1.completions == 1 })
        #expect(await loader.waitUntilIdle() == 0)
        #expect(loader.statistics.transfersStarted <= 11)
    }
}

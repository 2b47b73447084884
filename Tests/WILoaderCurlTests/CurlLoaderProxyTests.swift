import Foundation
import Testing
import WICore
import WILoaderCurl
import WITestServer

/// Through a proxy the address policy still holds: the proxy is trusted, each destination (and each redirect's)
/// is resolved and checked by the loader before the proxy is asked.
@Suite struct CurlLoaderProxyTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    /// A test server standing in for the proxy (it answers absolute-form requests by their path).
    static func proxy() async throws -> TestHTTPServer {
        let server = try await TestHTTPServer.start()
        server.route("/a.png") { _ in TestResponse(body: png, contentType: "image/png") }
        server.route("/to-metadata") { _ in .redirect(to: "http://169.254.169.254/latest/meta-data") }
        server.route("/to-public") { _ in .redirect(to: "http://1.1.1.1/a.png") }
        return server
    }

    @Test func destinationsAreCheckedAndTheProxyIsAsked() async throws {
        let proxy = try await Self.proxy()
        let loader = try CurlImageLoader(
            configuration: testConfiguration {
                $0.proxy = URL(string: "http://127.0.0.1:\(proxy.port)")
                $0.addressPolicy = .publicOnly(exceptions: ["127.0.0.2"])
            })
        // A private destination is refused before the proxy hears of it, whatever the proxy would do.
        let refused = await loader.result(URL(string: "http://10.1.2.3/a.png")!)
        #expect(refused.error?.code == .addressNotAllowed)
        let loopback = await loader.result(URL(string: "http://127.0.0.1:9/a.png")!)
        #expect(loopback.error?.code == .addressNotAllowed)
        #expect(proxy.requestCount("/a.png") == 0)
        // An allowed destination goes through the proxy (the trusted proxy itself is on loopback).
        let allowed = await loader.result(URL(string: "http://127.0.0.2:9/a.png")!)
        #expect(allowed.value?.data == Self.png)
        #expect(proxy.requests("/a.png").map(\.target) == ["http://127.0.0.2:9/a.png"])
        // A redirect to the metadata address is refused before it is followed.
        let redirected = await loader.result(URL(string: "http://127.0.0.2:9/to-metadata")!)
        #expect(redirected.error?.code == .addressNotAllowed)
        #expect(proxy.requestCount("/latest/meta-data") == 0)
        // A name that does not resolve is refused too (the proxy would resolve it unchecked).
        let unknown = await loader.result(URL(string: "http://no-such-host.invalid/a.png")!)
        #expect(unknown.error?.code == .addressNotAllowed)
        await proxy.stop()
    }

    @Test func withoutAPolicyTheProxyIsUsedAsIs() async throws {
        let proxy = try await Self.proxy()
        let loader = try CurlImageLoader(
            configuration: testConfiguration {
                $0.proxy = URL(string: "http://127.0.0.1:\(proxy.port)")
            })
        let result = await loader.result(URL(string: "http://10.1.2.3/a.png")!)
        #expect(result.value?.data == Self.png)
        #expect(proxy.requests("/a.png").map(\.target) == ["http://10.1.2.3/a.png"])
        await proxy.stop()
    }
}

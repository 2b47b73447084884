import Foundation
import Testing
import WICore
import WILoaderCurl
import WITestServer

/// The connection underneath: HTTP/1.1 keep-alive between sequential loads, and the timings of a TLS handshake.
@Suite struct CurlLoaderConnectionTests {
    /// Two loads one after the other to the same HTTP/1.1 origin: the server accepts one connection, and the
    /// second request arrives on it.
    @Test func sequentialLoadsReuseOneKeptAliveConnection() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a.png") { _ in TestResponse(body: testBytes(3000), contentType: "image/png") }
        server.route("/b.png") { _ in TestResponse(body: testBytes(4000, seed: 9), contentType: "image/png") }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        let first = try #require(await loader.result(server.url("/a.png")).value)
        #expect(first.data == testBytes(3000))
        #expect(first.metrics?.httpVersion == "1.1")
        let second = try #require(await loader.result(server.url("/b.png")).value)
        #expect(second.data == testBytes(4000, seed: 9))
        #expect(server.connections.opened == 1)
        #expect(server.connections.closed == 0)
        #expect(server.requests("/a.png").map(\.connection) == [1])
        #expect(server.requests("/b.png").map(\.connection) == [1])
        #expect(loader.statistics.connectionsOpened == 1)
        #expect(loader.statistics.transfersStarted == 2)
        // A reused connection has nothing to set up: no connect, no handshake before the second request.
        let reused = try #require(second.metrics)
        #expect(reused.connectDuration == 0 && reused.tlsDuration == 0)
    }

    /// Over TLS (nginx with a certificate made for the test), every phase is measured and they come in order:
    /// name lookup, then connect, then the handshake, all before the first byte and the end.
    @Test(
        .enabled(
            if: NginxServer.isAvailable,
            "nginx is not installed: apt-get install nginx-light (or nginx) to run the TLS timing test"))
    func tlsLoadReportsLookupConnectAndHandshakeInOrder() async throws {
        let body = testBytes(20_000)
        let nginx = try await NginxServer(files: ["t.png": body])
        defer { nginx.stop() }
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.allowInvalidSSLCertificates = true })
        let result = try #require(await loader.result(nginx.url("t.png")).value)
        #expect(result.data == body)
        let m = try #require(result.metrics)
        #expect(m.httpVersion == "2")
        #expect(m.remoteAddress == "127.0.0.1")
        // The durations are phases; their running sums are the moments each phase ended.
        let looked = m.dnsDuration
        let connected = looked + m.connectDuration
        let secured = connected + m.tlsDuration
        #expect(looked >= 0)
        #expect(connected > 0)
        #expect(m.tlsDuration > 0, "a TLS handshake takes time: \(m)")
        #expect(looked <= connected && connected <= secured)
        #expect(secured <= m.timeToFirstByte, "\(m)")
        #expect(m.timeToFirstByte <= m.totalDuration)

        // Plain HTTP to the test server: the same order, and no handshake.
        let server = try await TestHTTPServer.start()
        server.route("/p.png") { _ in TestResponse(body: body, contentType: "image/png") }
        let plain = try #require(await loader.result(server.url("/p.png")).value.flatMap(\.metrics))
        #expect(plain.tlsDuration == 0)
        #expect(plain.dnsDuration + plain.connectDuration <= plain.timeToFirstByte)
        #expect(plain.timeToFirstByte <= plain.totalDuration)
    }
}

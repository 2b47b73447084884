import Foundation
import Testing
import WICore
import WILoaderCurl
import WITestServer

/// Every fault the loader meets on the network gives its typed error and leaves nothing open: no easy handle alive
/// and, once the loader is released, no socket to the server (a connection kept for reuse is closed with the loader).
@Suite struct CurlLoaderFaultTests {
    struct Fault: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var code: ImageError.Code
        /// The start of the error's message ("curl error 18: "), or of the status code for a status error.
        var message: String
        var statusCode: Int? = nil
        var configure: @Sendable (inout CurlImageLoader.Configuration) -> Void = { _ in }
        /// Sets up the server for the fault and returns the URL to load.
        var url: @Sendable (TestHTTPServer) async -> URL
    }

    static let faults: [Fault] = [
        Fault(testDescription: "reset mid-body", code: .networkError, message: "curl error 18: ") { server in
            server.route("/reset") { _ in TestResponse(body: testBytes(10_000), contentType: "image/png").cut(after: 4000) }
            return server.url("/reset")
        },
        Fault(testDescription: "slow drip past the low-speed limit", code: .timedOut, message: "curl error 28: ",
              configure: { $0.lowSpeedTime = 1 }) { server in
            server.route("/drip") { _ in
                TestResponse(body: testBytes(10_000), contentType: "image/png").dripping(10, every: 0.1)
            }
            return server.url("/drip")
        },
        Fault(testDescription: "no answer before the total timeout", code: .timedOut, message: "curl error 28: ",
              configure: { $0.totalTimeout = 0.5 }) { server in
            server.route("/late") { _ in TestResponse(body: Data([1]), contentType: "image/png").delayed(by: 5) }
            return server.url("/late")
        },
        Fault(testDescription: "500", code: .badServerResponse, message: "unacceptable status code 500",
              statusCode: 500) { server in
            server.route("/500") { _ in TestResponse(status: 500, body: Data("oops".utf8), contentType: "text/plain") }
            return server.url("/500")
        },
        Fault(testDescription: "redirect loop", code: .tooManyRedirects, message: "") { server in
            server.route("/loop") { _ in .redirect(to: "/loop", status: 301) }
            return server.url("/loop")
        },
        Fault(testDescription: "wrong content type", code: .invalidDownloadContentType, message: "",
              statusCode: 200, configure: { $0.acceptableContentTypes = ["image/*"] }) { server in
            server.route("/html") { _ in TestResponse(body: Data("<html>".utf8), contentType: "text/html") }
            return server.url("/html")
        },
        Fault(testDescription: "connection refused", code: .networkError, message: "curl error 7: ") { server in
            await server.stop()
            return server.url("/refused")
        },
        // A 64-byte label is not a valid DNS name: the resolver fails without sending a query.
        Fault(testDescription: "unresolvable host", code: .networkError, message: "curl error 6: ") { _ in
            URL(string: "http://\(String(repeating: "a", count: 64)).test/a.png")!
        },
    ]

    @Test(arguments: faults)
    func givesItsTypedErrorAndLeavesNothingOpen(_ fault: Fault) async throws {
        let server = try await TestHTTPServer.start()
        let url = await fault.url(server)
        let port = url.port ?? 80
        #expect(openSockets(toPort: port) == 0)
        try await expectFault(fault, url: url, port: port)
    }

    @Test(.enabled(if: NginxServer.isAvailable, "nginx is not installed: apt-get install nginx-light (or nginx)"))
    func anInvalidCertificateIsANetworkErrorAndLeavesNothingOpen() async throws {
        let nginx = try await NginxServer(files: ["a.png": testBytes(100)])
        defer { nginx.stop() }
        let url = nginx.url("a.png")
        let fault = Fault(testDescription: "self-signed certificate", code: .networkError, message: "curl error 60: ") {
            _ in url
        }
        #expect(openSockets(toPort: nginx.port) == 0)
        try await expectFault(fault, url: url, port: nginx.port)
    }

    /// The socket count sees the connection of a transfer in flight, and sees it closed once the transfer is
    /// cancelled and the loader released.
    @Test func theSocketCountSeesATransferInFlight() async throws {
        let server = try await TestHTTPServer.start()
        let gate = TestGate()
        server.route("/held") { _ in
            var response = TestResponse(body: testBytes(10_000), contentType: "image/png").dripping(1000, every: 0)
            response.hold = (afterBytes: 1000, gate: gate)
            return response
        }
        do {
            let loader = CurlImageLoader(configuration: testConfiguration())
            let (operation, recorder) = loader.start(server.url("/held"))
            #expect(await eventually { openSockets(toPort: server.port) == 1 })
            operation.cancel()
            #expect(await recorder.waitForCompletion()?.error?.code == .cancelled)
            #expect(await loader.waitUntilIdle() == 0)
        }
        #expect(await eventually { openSockets(toPort: server.port) == 0 })
        gate.open()
    }

    /// Loads `url` with a fresh loader, checks the error, then that the loader freed its easy handle and, once
    /// released, left no socket to `port`.
    private func expectFault(_ fault: Fault, url: URL, port: Int) async throws {
        do {
            let loader = CurlImageLoader(configuration: testConfiguration(fault.configure))
            let error = try #require(await loader.result(url).error)
            #expect(error.code == fault.code, "\(error)")
            #expect(error.message.hasPrefix(fault.message), "\(error)")
            #expect(error.statusCode == fault.statusCode)
            #expect(await loader.waitUntilIdle() == 0)
            #expect(loader.statistics.transfersStarted == 1)
        }
        #expect(await eventually { openSockets(toPort: port) == 0 }, "a socket to port \(port) stayed open")
    }
}

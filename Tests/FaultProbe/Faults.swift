import Foundation
import WICore
import WILoaderCurl
import WITestServer

/// The servers a fault can use: the in-process test server, and nginx with a self-signed certificate when it is
/// installed.
struct Servers: Sendable {
    var http: TestHTTPServer
    var nginx: NginxServer?
}

/// One fault of the table: the loader's configuration for it, and how to set it up.
struct Fault: Sendable {
    var name: String
    var configure: @Sendable (inout CurlImageLoader.Configuration) -> Void = { _ in }
    /// Whether it needs nginx.
    var needsNginx = false
    /// Sets up the server for the fault and returns the URL to load.
    var url: @Sendable (Servers) async throws -> URL

    /// Every fault the loader meets on the network, in the order the probe runs them.
    static let all: [Fault] = [
        Fault(name: "reset mid-body") { servers in
            servers.http.route("/reset") { _ in TestResponse(body: body, contentType: "image/png").cut(after: 4000) }
            return servers.http.url("/reset")
        },
        Fault(name: "slow drip past the low-speed limit", configure: { $0.lowSpeedTime = 1 }) { servers in
            servers.http.route("/drip") { _ in
                TestResponse(body: body, contentType: "image/png").dripping(10, every: 0.1)
            }
            return servers.http.url("/drip")
        },
        Fault(name: "no answer before the total timeout", configure: { $0.totalTimeout = 0.5 }) { servers in
            servers.http.route("/late") { _ in TestResponse(body: Data([1]), contentType: "image/png").delayed(by: 5) }
            return servers.http.url("/late")
        },
        Fault(name: "500") { servers in
            servers.http.route("/500") { _ in
                TestResponse(status: 500, body: Data("oops".utf8), contentType: "text/plain")
            }
            return servers.http.url("/500")
        },
        Fault(name: "redirect loop") { servers in
            servers.http.route("/loop") { _ in .redirect(to: "/loop", status: 301) }
            return servers.http.url("/loop")
        },
        Fault(name: "wrong content type", configure: { $0.acceptableContentTypes = ["image/*"] }) { servers in
            servers.http.route("/html") { _ in TestResponse(body: Data("<html>".utf8), contentType: "text/html") }
            return servers.http.url("/html")
        },
        // A server of its own, stopped: its port refuses connections.
        Fault(name: "connection refused") { _ in
            let server = try await TestHTTPServer.start()
            await server.stop()
            return server.url("/refused")
        },
        // A 64-byte label is not a valid DNS name: the resolver fails without sending a query.
        Fault(name: "unresolvable host") { _ in
            URL(string: "http://\(String(repeating: "a", count: 64)).test/a.png")!
        },
        Fault(name: "TLS with a self-signed certificate", needsNginx: true) { servers in
            guard let nginx = servers.nginx else { throw ProbeError(description: "the TLS fault needs nginx") }
            return nginx.url("a.png")
        },
    ]
}

/// The body the faults cut short or drip: 10,000 bytes.
private let body = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

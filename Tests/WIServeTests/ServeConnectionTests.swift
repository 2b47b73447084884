import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage
@testable import WIServe
@testable import WIServeCore

/// Slow and idle clients over real sockets: a request head that never completes and a connection that waits are
/// closed after their timeouts, and near the connection cap waiting connections give way to new clients.
@Suite(.serialized) struct ServeConnectionTests {
    typealias H = ServeHarness

    /// A blocking TCP client on loopback; reads give up after 20 s (a safety net: every test waits for an event).
    final class RawConnection {
        let fd: Int32

        init(port: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw ImageError(.networkError, "socket: \(errno)") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                close(fd)
                throw ImageError(.networkError, "connect: \(errno)")
            }
            var limit = timeval(tv_sec: 20, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(fd) }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// Reads until `stop` holds for what came so far, the peer closes, or 20 s pass; returns the bytes and
        /// whether the peer closed the connection.
        func read(until stop: (String) -> Bool = { _ in false }) -> (text: String, closed: Bool) {
            var received = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count == 0 { return (String(decoding: received, as: UTF8.self), true) }
                if count < 0 { return (String(decoding: received, as: UTF8.self), errno == ECONNRESET) }
                received += buffer[0..<count]
                if stop(String(decoding: received, as: UTF8.self)) {
                    return (String(decoding: received, as: UTF8.self), false)
                }
            }
        }
    }

    static let health = "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n"

    /// Runs `body` with the port of a live server made with `configuration`.
    func withLiveServer(_ configuration: ServeConfiguration, _ body: @Sendable (Int) async throws -> Void) async throws
    {
        let server = try await ImageServer(configuration: configuration)
        try await server.makeApplication().test(.live) { client in
            try await body(try #require(client.port))
        }
        await server.manager.shutdown()
    }

    @Test func aRequestHeadThatNeverCompletesIsClosed() async throws {
        try await withLiveServer(
            H.configuration {
                $0.headerTimeout = 0.3
                $0.idleTimeout = 60
            }
        ) { port in
            let slow = try RawConnection(port: port)
            slow.send("GET /healthz HTTP/1.1\r\nHost: te")
            let (text, closed) = slow.read()
            #expect(closed && text.isEmpty)
            // A client that sends its head answers normally.
            let quick = try RawConnection(port: port)
            quick.send(Self.health)
            let answer = quick.read { $0.hasSuffix("ok\n") }
            #expect(answer.text.hasPrefix("HTTP/1.1 200"))
            #expect(!answer.closed)
        }
    }

    @Test func aConnectionThatWaitsIsClosed() async throws {
        try await withLiveServer(
            H.configuration {
                $0.headerTimeout = 60
                $0.idleTimeout = 0.3
            }
        ) { port in
            // One that never sends, and one that waits after its answer: both closed.
            let silent = try RawConnection(port: port)
            let kept = try RawConnection(port: port)
            kept.send(Self.health)
            let (text, closed) = kept.read()
            #expect(text.hasPrefix("HTTP/1.1 200") && text.hasSuffix("ok\n"))
            #expect(closed)
            #expect(silent.read() == ("", true))
        }
    }

    @Test func nearTheCapWaitingConnectionsGiveWayToNewClients() async throws {
        try await withLiveServer(
            H.configuration {
                $0.headerTimeout = 60
                $0.idleTimeout = 60
                $0.maxConnections = 2
            }
        ) { port in
            // Two keep-alive clients take the two connections and wait after their answers.
            let first = try RawConnection(port: port)
            let second = try RawConnection(port: port)
            for connection in [first, second] {
                connection.send(Self.health)
                #expect(connection.read { $0.hasSuffix("ok\n") }.text.hasPrefix("HTTP/1.1 200"))
            }
            // A third client waits in the backlog until the waiting ones are closed (within a second at the cap,
            // not the 60 s idle timeout), then it is answered.
            let third = try RawConnection(port: port)
            third.send("GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
            let answer = third.read()
            #expect(answer.text.hasPrefix("HTTP/1.1 200") && answer.text.hasSuffix("ok\n"))
            #expect(first.read().closed && second.read().closed)
        }
    }
}

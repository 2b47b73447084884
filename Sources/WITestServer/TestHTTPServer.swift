import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// An in-process HTTP/1.1 server for the loader's tests, on 127.0.0.1 and a free port.
///
/// Routes are closures from a request to a `TestResponse`; the server records every request per path and counts
/// connections opened and closed, so tests can see coalescing, Range headers and aborted transfers.
///
/// ```swift
/// let server = try await TestHTTPServer.start()
/// server.route("/a.png") { _ in .init(body: png, contentType: "image/png") }
/// let url = server.url("/a.png")
/// ```
///
/// Thread safety: every method may be called from any thread.
public final class TestHTTPServer: Sendable {
    /// A request as the server saw it.
    public struct Request: Sendable {
        public var method: String
        /// The path without the query.
        public var path: String
        public var query: String
        /// Header fields, names lowercased (repeated fields joined with ", ").
        public var headers: [String: String]
        /// Which connection carried it (numbered from 1 in accept order).
        public var connection: Int
        /// The request-target as sent: the path, or a whole URL when the request came to it as to a proxy.
        public var target = ""
        /// Its validators: the If-None-Match and If-Modified-Since it carried.
        public var validators: (ifNoneMatch: String?, ifModifiedSince: String?) {
            (headers["if-none-match"], headers["if-modified-since"])
        }
    }

    /// One answered request: what was asked, the status answered and how many body bytes were sent.
    public struct Exchange: Sendable {
        public var request: Request
        public var status: Int
        public var bodyBytes: Int
    }

    private struct State {
        var routes: [String: @Sendable (Request) -> TestResponse] = [:]
        var requests: [String: [Request]] = [:]
        var exchanges: [String: [Exchange]] = [:]
        var opened = 0
        var closed = 0
    }

    private let state = Mutex(State())
    private let channel: Mutex<(any Channel)?> = Mutex(nil)
    /// The port the server listens on.
    public let port: Int

    private init(port: Int) { self.port = port }

    /// Starts a server on 127.0.0.1 and a port the system picks.
    public static func start() async throws -> TestHTTPServer {
        let box = Mutex<TestHTTPServer?>(nil)
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let server = box.withLock({ $0 }) else { throw ChannelError.ioOnClosedChannel }
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
                    try channel.pipeline.syncOperations.addHandler(TestConnectionHandler(server: server))
                }
            }
        let listener = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        let server = TestHTTPServer(port: listener.localAddress?.port ?? 0)
        server.channel.withLock { $0 = listener }
        box.withLock { $0 = server }
        return server
    }

    /// Stops listening (open connections stay until their clients close them).
    public func stop() async {
        let listener = channel.withLock { c in
            defer { c = nil }
            return c
        }
        try? await listener?.close()
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Serves `path` (without query) with `handler`; unrouted paths get 404.
    public func route(_ path: String, _ handler: @escaping @Sendable (Request) -> TestResponse) {
        state.withLock { $0.routes[path] = handler }
    }

    /// The requests seen for `path`, in arrival order.
    public func requests(_ path: String) -> [Request] { state.withLock { $0.requests[path] ?? [] } }

    /// The requests to `path` answered so far, with their status and body bytes, in the order they were answered.
    public func exchanges(_ path: String) -> [Exchange] { state.withLock { $0.exchanges[path] ?? [] } }

    /// How many requests `path` received.
    public func requestCount(_ path: String) -> Int { requests(path).count }

    /// Connections accepted and connections closed so far.
    public var connections: (opened: Int, closed: Int) { state.withLock { ($0.opened, $0.closed) } }

    func recordAnswer(_ request: Request, status: Int, bodyBytes: Int) {
        state.withLock {
            $0.exchanges[request.path, default: []].append(
                Exchange(request: request, status: status, bodyBytes: bodyBytes))
        }
    }

    func connectionOpened() -> Int {
        state.withLock {
            $0.opened += 1
            return $0.opened
        }
    }

    func connectionClosed() { state.withLock { $0.closed += 1 } }

    func respond(to request: Request) -> TestResponse {
        let handler = state.withLock { s in
            s.requests[request.path, default: []].append(request)
            return s.routes[request.path]
        }
        return handler?(request) ?? TestResponse(status: 404, body: Data("not found".utf8), contentType: "text/plain")
    }
}

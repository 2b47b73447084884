import Foundation
import NIOCore
import NIOHTTP1

/// One connection of the test server: decodes requests, writes responses as raw bytes (so it can send bodies
/// without a length, drip them, or cut them short).
///
/// Thread safety: confined to its channel's event loop.
final class TestConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    private let server: TestHTTPServer
    private var connection = 0
    private var head: HTTPRequestHead?

    init(server: TestHTTPServer) { self.server = server }

    func channelActive(context: ChannelHandlerContext) {
        connection = server.connectionOpened()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        server.connectionClosed()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead): head = requestHead
        case .body: break
        case .end:
            guard let requestHead = head else { return }
            head = nil
            var fields: [String: String] = [:]
            for (name, value) in requestHead.headers {
                let key = name.lowercased()
                fields[key] = fields[key].map { $0 + ", " + value } ?? value
            }
            // An absolute-form target (a request to a proxy: `GET http://host:port/path`) is routed by its path,
            // so the server can stand in for a forward proxy as well as for the origin behind it.
            var target = Substring(requestHead.uri)
            if target.hasPrefix("http://") || target.hasPrefix("https://"),
                let scheme = target.firstRange(of: "://")
            {
                let rest = target[scheme.upperBound...]
                target = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
            }
            let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            var parsed = TestHTTPServer.Request(
                method: requestHead.method.rawValue, path: String(parts[0]),
                query: parts.count > 1 ? String(parts[1]) : "", headers: fields,
                connection: connection)
            parsed.target = requestHead.uri
            let request = parsed
            let response = server.respond(to: request)
            let loop = context.eventLoop.assumeIsolated()
            if let gate = response.gate {
                let released = {
                    var copy = response
                    copy.gate = nil
                    return copy
                }()
                let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                gate.whenOpen {
                    bound.eventLoop.execute {
                        let (handler, context) = bound.value
                        handler.send(released, request, context)
                    }
                }
            } else if response.delay > 0 {
                loop.scheduleTask(in: .nanoseconds(Int64(response.delay * 1e9))) {
                    self.send(response, request, context)
                }
            } else {
                send(response, request, context)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }

    private func send(_ response: TestResponse, _ request: TestHTTPServer.Request, _ context: ChannelHandlerContext) {
        var text = "HTTP/1.1 \(response.status) \(HTTPResponseStatus(statusCode: response.status).reasonPhrase)\r\n"
        for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
        let bodyless = request.method == "HEAD" || response.status == 304 || response.status == 204
        switch response.framing {
        case .contentLength: text += "Content-Length: \(response.body.count)\r\n"
        case .chunked: text += "Transfer-Encoding: chunked\r\n"
        case .untilClose: text += "Connection: close\r\n"
        }
        text += "\r\n"
        var body = bodyless ? Data() : response.body
        if let cut = response.closeAfter { body = body.prefix(cut) }
        // Logged before the first byte goes out, so a client that has the answer finds it in the log.
        server.recordAnswer(request, status: response.status, bodyBytes: body.count)
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text)), promise: nil)
        var pieces: [Data] = []
        let size =
            response.drip?.chunk ?? { if case .chunked(let n) = response.framing { return n } else { return 65536 } }()
        var offset = 0
        while offset < body.count {
            var end = min(body.count, offset + size)
            // A piece ends where the hold is, so the response stops after exactly `afterBytes` bytes.
            if let hold = response.hold, offset < hold.afterBytes, hold.afterBytes < end { end = hold.afterBytes }
            pieces.append(body.subdata(in: body.startIndex + offset..<body.startIndex + end))
            offset = end
        }
        let chunked: Bool = { if case .chunked = response.framing { return true } else { return false } }()
        let closes: Bool = {
            if case .untilClose = response.framing { return true } else { return response.closeAfter != nil }
        }()
        writePieces(
            pieces[...], sent: 0, chunked: chunked && !bodyless, closes: closes,
            interval: response.drip?.interval ?? 0, hold: response.hold, context: context)
    }

    private func writePieces(
        _ pieces: ArraySlice<Data>, sent: Int, chunked: Bool, closes: Bool, interval: Double,
        hold: (afterBytes: Int, gate: TestGate)?, context: ChannelHandlerContext
    ) {
        guard context.channel.isActive else { return }
        guard let piece = pieces.first else {
            if chunked { context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "0\r\n\r\n")), promise: nil) }
            if closes { context.close(promise: nil) }
            return
        }
        var buffer = context.channel.allocator.buffer(capacity: piece.count + 16)
        if chunked { buffer.writeString(String(piece.count, radix: 16) + "\r\n") }
        buffer.writeBytes(piece)
        if chunked { buffer.writeString("\r\n") }
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        let rest = pieces.dropFirst()
        let total = sent + piece.count
        if let hold, total == hold.afterBytes {
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            hold.gate.whenOpen {
                bound.eventLoop.execute {
                    let (handler, context) = bound.value
                    handler.writePieces(
                        rest, sent: total, chunked: chunked, closes: closes, interval: interval,
                        hold: nil, context: context)
                }
            }
        } else if interval > 0 {
            context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(interval * 1e9))) {
                self.writePieces(
                    rest, sent: total, chunked: chunked, closes: closes, interval: interval, hold: hold,
                    context: context)
            }
        } else {
            writePieces(
                rest, sent: total, chunked: chunked, closes: closes, interval: interval, hold: hold,
                context: context)
        }
    }
}

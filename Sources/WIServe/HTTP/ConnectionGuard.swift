import WIServeCore
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes
import Synchronization

/// The time limits of a connection and the headroom of the connection cap: `--header-timeout`, `--idle-timeout`,
/// `--max-connections`.
///
/// A connection waiting for a request (just opened, or after an answer) is closed after `idle`; one whose next
/// request has begun but whose head is not complete (a slowloris client) after `header` from that request's first
/// byte. While the service holds 90% of its cap or more, waiting connections get at most a second, so that clients
/// in the listen backlog get in. A request being answered is bounded by `--timeout`, not here.
///
/// Thread safety: immutable, with an atomic count of open connections.
final class ConnectionLimits: Sendable {
    let header: Duration
    let idle: Duration
    let maximum: Int
    private let open = Atomic<Int>(0)

    init(header: Duration, idle: Duration, maximum: Int) {
        self.header = header
        self.idle = idle
        self.maximum = maximum
    }

    /// Connections open now.
    var openCount: Int { open.load(ordering: .relaxed) }
    func opened() { open.add(1, ordering: .relaxed) }
    func closed() { open.subtract(1, ordering: .relaxed) }

    /// How long a waiting connection may stay now: `idle`, or at most a second near the cap.
    var currentIdle: Duration {
        openCount * 10 >= maximum * 9 ? min(idle, .seconds(1)) : idle
    }

    /// The HTTP/1.1 server: Hummingbird's, with the byte-level timer in front of its decoder and the request-level
    /// notices behind it.
    func serverBuilder() -> HTTPServerBuilder {
        HTTPServerBuilder { responder in GuardedHTTP1Channel(limits: self, responder: responder) }
    }
}

/// Hummingbird's HTTP/1.1 child channel with a `ConnectionTimer` first in the pipeline.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let limits: ConnectionLimits
    let http1: HTTP1Channel

    init(limits: ConnectionLimits, responder: @escaping HTTPChannelHandler.Responder) {
        self.limits = limits
        http1 = HTTP1Channel(
            responder: responder,
            configuration: .init(additionalChannelHandlers: [RequestProgressNotifier()]))
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let limits = limits
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(ConnectionTimer(limits: limits))
        }.flatMap { http1.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

/// What `RequestProgressNotifier` tells `ConnectionTimer`, as outbound user events.
enum RequestProgress: Sendable {
    /// A request's head was decoded.
    case headReceived
    /// An answer's end was written.
    case responseEnded
}

/// Behind the HTTP decoder: tells the byte-level timer when a request head is complete and when an answer ends.
final class RequestProgressNotifier: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            context.triggerUserOutboundEvent(RequestProgress.headReceived, promise: nil)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let isEnd = if case .end = unwrapOutboundIn(data) { true } else { false }
        context.write(data, promise: promise)
        if isEnd { context.triggerUserOutboundEvent(RequestProgress.responseEnded, promise: nil) }
    }
}

/// In front of the HTTP decoder: closes a connection that waits too long for its next request, or whose request
/// head takes too long to arrive.
final class ConnectionTimer: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private enum Phase {
        /// No byte of a next request yet, since `since`.
        case waiting(since: NIODeadline)
        /// A request's first bytes came at `since`; its head is not complete.
        case readingHead(since: NIODeadline)
        /// Requests whose heads are complete are being answered.
        case answering
    }

    private let limits: ConnectionLimits
    private var phase = Phase.waiting(since: .now())
    private var timer: Scheduled<Void>?
    /// Heads received minus answers ended.
    private var inFlight = 0
    /// Bytes of a further (pipelined) request arrived while answering.
    private var moreBytes = false
    private var counted = false

    init(limits: ConnectionLimits) { self.limits = limits }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { stop() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch phase {
        case .waiting:
            enter(.readingHead(since: .now()), context)
        case .answering:
            moreBytes = true
        case .readingHead:
            break
        }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let progress = event as? RequestProgress else {
            return context.triggerUserOutboundEvent(event, promise: promise)
        }
        switch progress {
        case .headReceived:
            inFlight += 1
            moreBytes = false
            enter(.answering, context)
        case .responseEnded:
            inFlight = max(0, inFlight - 1)
            if inFlight == 0 { enter(moreBytes ? .readingHead(since: .now()) : .waiting(since: .now()), context) }
        }
        promise?.succeed()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !counted else { return }
        counted = true
        limits.opened()
        enter(.waiting(since: .now()), context)
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        if counted {
            counted = false
            limits.closed()
        }
    }

    private func enter(_ next: Phase, _ context: ChannelHandlerContext) {
        phase = next
        timer?.cancel()
        timer = nil
        arm(context)
    }

    /// Schedules the next look at the phase: at its deadline, and at least every second while waiting (the
    /// headroom near the cap may shorten a wait already begun).
    private func arm(_ context: ChannelHandlerContext) {
        let deadline: NIODeadline
        switch phase {
        case .answering:
            return
        case .waiting(let since):
            deadline = min(since + TimeAmount(limits.currentIdle), .now() + .seconds(1))
        case .readingHead(let since):
            deadline = since + TimeAmount(limits.header)
        }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.timer = nil
            handler.check(context)
        }
    }

    private func check(_ context: ChannelHandlerContext) {
        let now = NIODeadline.now()
        switch phase {
        case .answering:
            return
        case .waiting(let since):
            if now >= since + TimeAmount(limits.currentIdle) { return close(context) }
        case .readingHead(let since):
            if now >= since + TimeAmount(limits.header) { return close(context) }
        }
        arm(context)
    }

    private func close(_ context: ChannelHandlerContext) {
        stop()
        context.close(promise: nil)
    }
}

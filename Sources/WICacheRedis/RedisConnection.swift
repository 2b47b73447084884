#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
#if canImport(Glibc)
import Glibc
#endif
private import CHiredis

/// One blocking hiredis connection (`redisContext`), freed in deinit.
///
/// Commands go as argument vectors (`redisCommandArgv`, `redisAppendCommandArgv` + `redisGetReply` for
/// pipelines), so values are binary-safe; the variadic `redisCommand` is never used. After any transport failure
/// (timeout, closed socket, protocol error) hiredis marks the context broken and the connection must be dropped.
///
/// Thread safety: not thread-safe on its own; the pool lends each connection to one caller at a time.
// @unchecked Sendable: a connection is only used by the caller that checked it out of `RedisConnectionPool`
// (whose Mutex hands it over); it is never touched by two threads at once.
final class RedisConnection: @unchecked Sendable {
    private let context: UnsafeMutablePointer<redisContext>
    /// Whether the last failure was the server closing the connection (EOF, reset): a stale idle connection
    /// rather than an outage.
    private(set) var lastFailureWasClosedConnection = false

    /// Connects, sets the command timeout and TCP keep-alive, then authenticates and selects the database.
    init(_ configuration: RedisCache.Configuration) throws(ImageError) {
        let connectTimeout = Self.timeval(configuration.connectTimeout)
        guard let context = redisConnectWithTimeout(configuration.host, Int32(configuration.port), connectTimeout)
        else {
            throw ImageError(.redisUnavailable, "hiredis could not allocate a context")
        }
        self.context = context
        // Keep the reader's buffer between replies (hiredis frees it once empty and larger than `maxbuf`, 16 KB
        // by default), so a hit of a large entry does not regrow it by doubling reallocs into fresh pages.
        context.pointee.reader.pointee.maxbuf = Self.keptReaderBuffer
        let address = "\(configuration.host):\(configuration.port)"
        if context.pointee.err != 0 { throw failure("connecting to \(address)") }
        // hiredis 0.14 opens its socket without close-on-exec: a program the application starts must not inherit
        // the connection (it would share the stream, and keep it open after the tier closed it).
        _ = fcntl(context.pointee.fd, F_SETFD, fcntl(context.pointee.fd, F_GETFD) | FD_CLOEXEC)
        guard redisSetTimeout(context, Self.timeval(configuration.commandTimeout)) == REDIS_OK else {
            throw failure("setting the command timeout")
        }
        _ = redisEnableKeepAlive(context)
        if let password = configuration.password {
            let arguments = ["AUTH"] + (configuration.username.map { [$0] } ?? []) + [password]
            guard try command(arguments.map { Data($0.utf8) }).isOK() else {
                throw ImageError(.redisUnexpectedReply, "AUTH answered nil")
            }
        }
        if configuration.database != 0 {
            _ = try command([Data("SELECT".utf8), Data(String(configuration.database).utf8)]).isOK()
        }
    }

    deinit { redisFree(context) }

    /// The largest empty reader buffer a connection keeps: 4 MB holds the buffer a 1 MB entry grows it to (sds
    /// doubles up to 1 MB, then adds 1 MB) with room to spare; the default 8 idle connections keep at most 32 MB.
    static let keptReaderBuffer = 4 << 20

    /// The connection's socket.
    var fileDescriptor: Int32 { context.pointee.fd }

    /// Whether hiredis marked the connection broken; it must not be reused.
    var isBroken: Bool { context.pointee.err != 0 }

    /// Sends one command and waits for its reply (an error reply is returned, not thrown).
    func command(_ arguments: [Data]) throws(ImageError) -> RedisReply {
        let raw = Self.withoutSIGPIPE {
            Self.withArgv(arguments) { count, argv, lengths in redisCommandArgv(context, count, argv, lengths) }
        }
        guard let raw else { throw failure("sending \(Self.name(of: arguments))") }
        defer { freeReplyObject(raw) }
        return Self.reply(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Sends `commands` in one write and reads their replies in order: one round trip.
    func pipeline(_ commands: [[Data]]) throws(ImageError) -> [RedisReply] {
        for arguments in commands {
            let status = Self.withArgv(arguments) { count, argv, lengths in
                redisAppendCommandArgv(context, count, argv, lengths)
            }
            guard status == REDIS_OK else { throw failure("queueing \(Self.name(of: arguments))") }
        }
        var replies: [RedisReply] = []
        replies.reserveCapacity(commands.count)
        for arguments in commands {
            var raw: UnsafeMutableRawPointer?
            guard Self.withoutSIGPIPE({ redisGetReply(context, &raw) }) == REDIS_OK, let raw else {
                throw failure("reading \(Self.name(of: arguments))")
            }
            replies.append(Self.reply(raw.assumingMemoryBound(to: redisReply.self)))
            freeReplyObject(raw)
        }
        return replies
    }

    /// The one place that turns hiredis's context error into an `ImageError` (and notes whether it was a closed
    /// connection). Reads `errno` first: hiredis leaves it from the failed system call.
    private func failure(_ doing: String) -> ImageError {
        let code = errno
        let kind = context.pointee.err
        lastFailureWasClosedConnection =
            kind == REDIS_ERR_EOF || (kind == REDIS_ERR_IO && (code == ECONNRESET || code == EPIPE))
        let text = withUnsafeBytes(of: context.pointee.errstr) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        let timedOut =
            kind == REDIS_ERR_IO && (code == EAGAIN || code == EWOULDBLOCK || code == ETIMEDOUT || code == EINPROGRESS)
        return ImageError(.redisUnavailable, "\(doing): \(timedOut ? "timed out (\(text))" : text)")
    }

    /// Converts a hiredis reply (recursively) into a `RedisReply`. A bulk string's buffer (hiredis `malloc`s it)
    /// is handed to the `Data`, which frees it, and cleared in the reply, so `freeReplyObject` leaves it alone:
    /// the bytes are not copied a second time.
    private static func reply(_ reply: UnsafeMutablePointer<redisReply>) -> RedisReply {
        let value = reply.pointee
        func text() -> String {
            value.str.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: value.len), as: UTF8.self) } ?? ""
        }
        switch value.type {
        case REDIS_REPLY_STRING:
            guard let bytes = value.str else { return .string(Data()) }
            reply.pointee.str = nil
            return .string(Data(bytesNoCopy: bytes, count: value.len, deallocator: .free))
        case REDIS_REPLY_STATUS: return .status(text())
        case REDIS_REPLY_INTEGER: return .integer(value.integer)
        case REDIS_REPLY_ERROR: return .error(text())
        case REDIS_REPLY_ARRAY:
            return .array((0..<value.elements).map { index in value.element[index].map { Self.reply($0) } ?? .null })
        default: return .null
        }
    }

    /// Lays `arguments` out in one buffer and calls `body` with hiredis's argc/argv/argvlen.
    private static func withArgv<R>(
        _ arguments: [Data],
        _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> R
    ) -> R {
        var joined = [UInt8]()
        joined.reserveCapacity(arguments.reduce(1) { $0 + $1.count })
        var offsets: [Int] = []
        for argument in arguments {
            offsets.append(joined.count)
            joined.append(contentsOf: argument)
        }
        joined.append(0)  // never empty, so the base address exists
        let lengths = arguments.map(\.count)
        return joined.withUnsafeBytes { bytes in
            let base = bytes.baseAddress!
            var pointers: [UnsafePointer<CChar>?] = offsets.map {
                base.advanced(by: $0).assumingMemoryBound(to: CChar.self)
            }
            return lengths.withUnsafeBufferPointer { lengths in
                pointers.withUnsafeMutableBufferPointer { argv in
                    body(Int32(arguments.count), argv.baseAddress!, lengths.baseAddress!)
                }
            }
        }
    }

    /// Runs `body` (which may write to the socket) with SIGPIPE blocked on this thread, and consumes a SIGPIPE it
    /// raised. hiredis 0.14 writes with plain `write()`, so a write into a connection the server reset raises
    /// SIGPIPE, whose default action kills the process; the write itself then fails with EPIPE, which is handled
    /// as a closed connection. (The technique libpq uses where MSG_NOSIGNAL is out of reach.)
    private static func withoutSIGPIPE<R>(_ body: () -> R) -> R {
        var pipe = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipe, &previous)
        var pending = sigset_t()
        sigpending(&pending)
        let wasPending = sigismember(&pending, SIGPIPE) == 1
        let result = body()
        if !wasPending {
            let code = errno  // keep hiredis's errno for `failure`
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var noWait = timespec()
                _ = sigtimedwait(&pipe, nil, &noWait)
            }
            errno = code
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        return result
    }

    private static func name(of arguments: [Data]) -> String {
        arguments.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    private static func timeval(_ duration: Duration) -> Glibc.timeval {
        let (seconds, attoseconds) = duration.components
        return Glibc.timeval(tv_sec: Int(max(0, seconds)), tv_usec: Int(max(0, attoseconds) / 1_000_000_000_000))
    }
}

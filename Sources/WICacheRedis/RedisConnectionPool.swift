#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization
import WICore

/// A small pool of idle connections with a circuit breaker in front of the server.
///
/// A caller takes an idle connection (or opens one), uses it alone, and gives it back; at most
/// `maxIdleConnections` are kept, extra ones are closed. A transport failure (connect refused, timeout, closed
/// socket) starts an outage: idle connections are dropped, one warning goes to the warning handler, and every call
/// fails fast with `.redisUnavailable` until the retry time. Then one caller tries to connect (the others keep
/// failing fast); a failed try doubles the delay up to `maxReconnectDelay`, a success ends the outage. A reused
/// idle connection that the server had closed (its `timeout` setting, a restart) is retried once on a new
/// connection before anything counts as an outage.
///
/// Thread safety: every method may be called from any number of threads at once.
final class RedisConnectionPool: Sendable {
    private struct State {
        var idle: [RedisConnection] = []
        /// When the current outage started; nil while the server is reachable.
        var outageStart: ContinuousClock.Instant?
        var retryAt: ContinuousClock.Instant = .now
        var delay: Duration = .zero
        var lastError = ""
        /// Connections opened (or tried) so far: tests check that an outage does not reconnect on every call.
        var connectAttempts = 0
        /// Set by `close()`: no connection is kept or opened any more.
        var closed = false
    }

    private enum Checkout {
        case idle(RedisConnection)
        /// Open a connection; `trial` when it is the one reconnection try of an outage.
        case connect(trial: Bool)
        case refused(String)
        case closed
    }

    let configuration: RedisCache.Configuration
    private let state = Mutex(State())

    init(configuration: RedisCache.Configuration) {
        self.configuration = configuration
    }

    /// Runs `body` with a connection of its own; transport failures count toward the breaker.
    func withConnection<T>(_ body: (RedisConnection) throws(ImageError) -> T) throws(ImageError) -> T {
        var trial = false
        switch checkout() {
        case .idle(let connection):
            do { return try use(connection, trial: false, reused: true, body) } catch {
                // The server closed an idle connection (restart, `timeout`): try once more on a new one.
                guard connection.lastFailureWasClosedConnection else { throw error }
                state.withLock { $0.connectAttempts += 1 }
            }
        case .connect(let isTrial): trial = isTrial
        case .refused(let message): throw ImageError(.redisUnavailable, message)
        case .closed: throw ImageError(.shutDown, "the Redis tier was shut down")
        }
        let connection: RedisConnection
        do {
            connection = try RedisConnection(configuration)
        } catch {
            fail(error, trial: trial)
            throw error
        }
        return try use(connection, trial: trial, reused: false, body)
    }

    /// Closes the idle connections and refuses every later call (1010); calls in flight finish on their own
    /// connections, which are closed when they come back.
    func close() {
        let dropped = state.withLock { state -> [RedisConnection] in
            state.closed = true
            defer { state.idle.removeAll() }
            return state.idle
        }
        _ = dropped  // closed here, outside the lock
    }

    /// Connections opened or tried so far.
    var connectAttempts: Int { state.withLock { $0.connectAttempts } }
    /// Connections waiting in the pool.
    var idleCount: Int { state.withLock { $0.idle.count } }
    /// The wait before the next reconnection try of the current outage.
    var reconnectDelay: Duration { state.withLock { $0.delay } }
    /// Whether the tier is in an outage (failing fast until its retry time).
    var isInOutage: Bool { state.withLock { $0.outageStart != nil } }

    private func use<T>(
        _ connection: RedisConnection, trial: Bool, reused: Bool, _ body: (RedisConnection) throws(ImageError) -> T
    ) throws(ImageError) -> T {
        do {
            let result = try body(connection)
            checkin(connection)
            return result
        } catch {
            if !connection.isBroken {
                checkin(connection)  // an error reply: the connection is fine
            } else if !(reused && connection.lastFailureWasClosedConnection) {
                fail(error, trial: trial)  // (a reused connection found closed is retried by the caller)
            }
            throw error
        }
    }

    private func checkout() -> Checkout {
        state.withLock { state in
            if state.closed { return .closed }
            if let connection = state.idle.popLast() { return .idle(connection) }
            var trial = false
            if state.outageStart != nil {
                let now = ContinuousClock.now
                guard now >= state.retryAt else {
                    return .refused(
                        "Redis at \(address) is unavailable (\(state.lastError)); next try in \(state.retryAt - now)")
                }
                // This caller tries; the others keep failing fast until it reports back.
                state.retryAt = now + state.delay
                trial = true
            }
            state.connectAttempts += 1
            return .connect(trial: trial)
        }
    }

    private func checkin(_ connection: RedisConnection) {
        let surplus = state.withLock { state -> RedisConnection? in
            state.outageStart = nil
            guard !state.closed, state.idle.count < configuration.maxIdleConnections else { return connection }
            state.idle.append(connection)
            return nil
        }
        _ = surplus  // closed here, outside the lock
    }

    /// Records a transport failure: starts an outage (warning once), or after a failed reconnection try doubles
    /// the delay before the next one. Failures of calls that were already under way change nothing more.
    private func fail(_ error: ImageError, trial: Bool) {
        let (dropped, warning) = state.withLock { state -> ([RedisConnection], String?) in
            let now = ContinuousClock.now
            var warning: String?
            if state.outageStart == nil {
                state.outageStart = now
                state.delay = configuration.reconnectDelay
                state.retryAt = now + state.delay
                warning =
                    "WICacheRedis: Redis at \(address) is unavailable (\(error.message)); the tier reports misses "
                    + "and drops writes until it is back (next try in \(state.delay))"
            } else if trial {
                state.delay = min(state.delay * 2, configuration.maxReconnectDelay)
                state.retryAt = now + state.delay
            }
            state.lastError = error.message
            defer { state.idle.removeAll() }
            return (state.idle, warning)
        }
        _ = dropped
        if let warning {
            configuration.logger.warning(
                "\(warning)",
                metadata: [
                    "redis.address": "\(address)", "webimage.error.code": "\(error.code.rawValue)",
                ])
            configuration.warningHandler?(warning)
        }
    }

    private var address: String { "\(configuration.host):\(configuration.port)" }
}

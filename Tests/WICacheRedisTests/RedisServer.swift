import Foundation
import Synchronization
import WICacheRedis
import WICore
import WITestSupport
#if canImport(Glibc)
import Glibc
#endif

extension RedisServer {
    /// A tier configuration for this server, with short timeouts and warnings collected by `warnings`.
    func configuration(warnings: Warnings? = nil) -> RedisCache.Configuration {
        var configuration = RedisCache.Configuration(host: "127.0.0.1", port: port)
        configuration.namespace = "test:"
        configuration.connectTimeout = .milliseconds(200)
        configuration.commandTimeout = .milliseconds(200)
        configuration.reconnectDelay = .milliseconds(50)
        configuration.maxReconnectDelay = .milliseconds(200)
        if let warnings { configuration.warningHandler = { warnings.append($0) } }
        return configuration
    }
}

/// Warning lines collected from a tier's warning handler.
final class Warnings: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
    var count: Int { lines.withLock { $0.count } }
}

/// Milliseconds since `start`.
func milliseconds(since start: ContinuousClock.Instant) -> Double {
    let (seconds, attoseconds) = (ContinuousClock.now - start).components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

/// Threads for the tests' blocking parts (waiting for processes, timed loops), so they never hold Swift's
/// cooperative threads (two on this machine) that the loaders' tasks need.
let blockingThreads = WorkerPool(name: "redis-tests", threads: 8)

/// Runs blocking `body` on `blockingThreads`.
func blocking<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T { await blockingThreads.run(body) }

import Foundation

/// Debian's redis-server on a free loopback port, nothing persisted, for the Redis package-benchmark target
/// (`Benchmarks/compare` starts its own the same way), stopped by its PID.
public enum LocalRedis {
    /// redis-server from the PATH, else /usr/bin; nil when missing (Scripts/install-deps installs it).
    public static let executable = LocalServerProcess.executable("redis-server")

    /// Starts a server and waits until it accepts connections.
    public static func start() throws -> LocalServerProcess {
        guard let executable else { throw LocalServerError("redis-server is not installed") }
        let port = LocalPorts.free()
        return try LocalServerProcess(
            executable: executable,
            arguments: [
                "--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--daemonize", "no", "--dir", NSTemporaryDirectory(), "--loglevel", "warning",
            ],
            port: port)
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real `redis-server` on a free loopback port, started by the test and stopped by PID (SIGKILL) when the value
/// goes away. Nothing is persisted (`--save "" --appendonly no`). Used by the Redis tier's tests and `wi serve`'s.
///
/// Thread safety: none; one test owns it.
public final class RedisServer {
    /// The loopback port it listens on.
    public let port: Int
    private let extraArguments: [String]
    private var process: Process?

    /// `redis-server` from the PATH (Scripts/install-deps installs Debian's).
    public static let executable: String = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") + ["/usr/bin", "/usr/sbin"] {
            let candidate = "\(directory)/redis-server"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "/usr/bin/redis-server"
    }()

    /// Starts a server; `arguments` are extra `--name value` settings (e.g. `["--requirepass", "secret"]`).
    public init(_ arguments: [String] = []) throws {
        port = Self.freePort()
        extraArguments = arguments
        try start()
    }

    deinit { kill() }

    /// The PID of the running server, or nil when stopped.
    public var pid: Int32? { process?.processIdentifier }

    /// Starts the server (again, on the same port) and waits until it accepts connections.
    public func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments =
            [
                "--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--daemonize", "no", "--dir", NSTemporaryDirectory(), "--loglevel", "warning",
            ] + extraArguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(10)
        while !Self.accepts(port: port) {
            guard Date() < deadline, process.isRunning else { throw CocoaError(.executableLoad) }
            usleep(5_000)
        }
    }

    /// Kills the server with SIGKILL (no goodbye to clients) and waits for it to exit.
    public func kill() {
        guard let process else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// Freezes the server (SIGSTOP): connections are accepted by the kernel but nothing is answered.
    public func pause() { if let pid { Glibc.kill(pid, SIGSTOP) } }
    /// Lets a paused server run again (SIGCONT).
    public func resume() { if let pid { Glibc.kill(pid, SIGCONT) } }

    /// A port nothing listens on right now (the kernel's pick for an ephemeral bind).
    public static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A server process the benchmarks start themselves (nginx, redis-server) on a free loopback port: started
/// with `arguments`, waited for until the port accepts connections, and stopped by its PID.
///
/// Thread safety: create and stop from one thread (the `Process` is only touched by `init` and `stop`, hence the
/// unchecked conformance); `port` may be read from any.
public final class LocalServerProcess: @unchecked Sendable {
    /// The loopback port the server listens on.
    public let port: Int
    private let process = Process()

    /// Starts `executable` with `arguments` (which must make it listen on 127.0.0.1:`port`) and waits until it
    /// accepts connections (10 s at most).
    public init(executable: String, arguments: [String], port: Int) throws {
        self.port = port
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard LocalPorts.waitUntilListening(port, while: { process.isRunning }) else {
            stop()
            throw LocalServerError("\(executable) did not start listening on 127.0.0.1:\(port)")
        }
    }

    /// Stops the server by its PID (SIGKILL) and waits for it to exit.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// `name` from the PATH, else from /usr/sbin or /usr/bin; nil when it is not installed.
    public static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return (path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/bin"])
            .map { $0 + "/" + name }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// Why a local server could not be started.
public struct LocalServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Loopback ports for the local servers.
public enum LocalPorts {
    /// A port nothing listens on right now (the kernel's pick for an ephemeral bind).
    public static func free() -> Int {
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

    /// Polls `port` on 127.0.0.1 until it accepts a connection (true), `alive` turns false or 10 s pass (false).
    public static func waitUntilListening(_ port: Int, while alive: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline && alive() {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = loopback(port: port)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(fd)
            if connected == 0 { return true }
            usleep(20_000)
        }
        return false
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

import Foundation
import NIOPosix

/// nginx serving a folder over HTTPS with HTTP/2 and a self-signed certificate, for the HTTP/2 test and the TLS
/// fault (a certificate the loader must refuse).
///
/// Started on a free port in a temporary folder; stopped by its PID.
///
/// ```swift
/// let nginx = try await NginxServer(files: ["a.png": png])
/// defer { nginx.stop() }
/// let url = nginx.url("a.png")
/// ```
///
/// Thread safety: `stop()` is called once, by the owner; `url(_:)` and the properties may be read from any thread.
// @unchecked Sendable: `process` is started in init and only touched again by `stop()`; the rest is immutable.
public final class NginxServer: @unchecked Sendable {
    public static let executable = "/usr/sbin/nginx"
    public static let openssl = "/usr/bin/openssl"
    /// Whether nginx and openssl are installed.
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: executable)
            && FileManager.default.isExecutableFile(atPath: openssl)
    }

    /// The temporary folder holding the configuration, the certificate and the served files (`www/`).
    public let directory: URL
    /// The port nginx listens on, on 127.0.0.1.
    public let port: Int
    private let process = Process()

    /// Serves `files` (name -> bytes).
    public init(files: [String: Data]) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("wi-nginx-\(UUID().uuidString)")
        let root = directory.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (name, data) in files { try data.write(to: root.appendingPathComponent(name)) }
        let folder = directory
        // blocks until openssl exits: keep it off the task pool
        try await NIOThreadPool.singleton.runIfActive { () throws -> Void in
            try Self.run(
                Self.openssl,
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", folder.appendingPathComponent("key.pem").path,
                    "-out", folder.appendingPathComponent("cert.pem").path,
                    "-days", "1", "-subj", "/CN=localhost",
                ])
        }
        // A free port: let the system pick one for a listener, then close it.
        let probe = try await TestHTTPServer.start()
        port = probe.port
        await probe.stop()
        let d = directory.path
        let configuration = """
            worker_processes 1;
            daemon off;
            master_process off;
            pid \(d)/nginx.pid;
            error_log \(d)/error.log;
            events { worker_connections 256; }
            http {
                access_log off;
                client_body_temp_path \(d)/body; proxy_temp_path \(d)/proxy; fastcgi_temp_path \(d)/fastcgi;
                uwsgi_temp_path \(d)/uwsgi; scgi_temp_path \(d)/scgi;
                types { image/png png; }
                server {
                    listen 127.0.0.1:\(port) ssl http2;
                    ssl_certificate \(d)/cert.pem;
                    ssl_certificate_key \(d)/key.pem;
                    root \(d)/www;
                }
            }
            """
        try configuration.write(to: directory.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-p", d, "-c", "\(d)/nginx.conf", "-e", "\(d)/error.log"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try await waitUntilListening()
    }

    /// Stops nginx by its PID and removes the folder.
    public func stop() {
        if process.isRunning {
            // SIGTERM may be blocked: children inherit the test runner's signal mask
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// `https://127.0.0.1:<port>/<name>`.
    public func url(_ name: String) -> URL { URL(string: "https://127.0.0.1:\(port)/\(name)")! }

    private func waitUntilListening() async throws {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(fd)
            if connected == 0 { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        stop()
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "nginx did not start"])
    }

    private static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(executable) failed"])
        }
    }
}

import Foundation

/// Debian's nginx serving a folder over plain HTTP/1.1 on a free loopback port, for the package-benchmark targets
/// that load over the network (`Benchmarks/compare` starts its own the same way). Its prefix, configuration, pid
/// and logs live in a temporary folder; one worker, no master, not a daemon, so the process started is the server
/// and `stop()` ends it by its PID.
///
/// Thread safety: create and stop from one thread; `url(_:)` and `port` may be read from any.
public final class LocalNginx: Sendable {
    /// nginx from the PATH, else /usr/sbin/nginx; nil when neither exists (`make bench` installs it).
    public static let executable = LocalServerProcess.executable("nginx")

    /// The loopback port nginx listens on.
    public var port: Int { server.port }
    private let directory: String
    private let server: LocalServerProcess

    /// Starts nginx serving `root` and waits until it accepts connections.
    public init(root: String) throws {
        guard let executable = Self.executable else { throw LocalServerError("nginx is not installed") }
        directory = NSTemporaryDirectory() + "wi-bench-nginx-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let port = LocalPorts.free()
        let d = directory
        let configuration = """
            worker_processes 1;
            daemon off;
            master_process off;
            pid \(d)/nginx.pid;
            error_log \(d)/error.log;
            events { worker_connections 1024; }
            http {
                access_log off;
                sendfile on;
                client_body_temp_path \(d)/body; proxy_temp_path \(d)/proxy; fastcgi_temp_path \(d)/fastcgi;
                uwsgi_temp_path \(d)/uwsgi; scgi_temp_path \(d)/scgi;
                server { listen 127.0.0.1:\(port); root \(root); }
            }
            """
        try configuration.write(toFile: d + "/nginx.conf", atomically: true, encoding: .utf8)
        server = try LocalServerProcess(
            executable: executable,
            arguments: ["-p", d, "-c", d + "/nginx.conf", "-e", d + "/error.log"],
            port: port)
    }

    /// The URL of `path` (relative to the served folder).
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

    /// Stops nginx by its PID and removes its temporary folder.
    public func stop() {
        server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

import Foundation

/// A built product of this package running in the background (an example server), as its user runs it: its
/// output goes to a file, and it is stopped by a signal to its process id.
///
/// ```swift
/// let app = try RunningProduct("hummingbird-app", environment: ["PORT": "8080"])
/// // ... requests ...
/// #expect(await app.stop() == 0)
/// ```
///
/// Thread safety: not shared; use one from the task that started it.
public final class RunningProduct {
    private let process = Process()
    /// Standard output and standard error, together.
    public let logURL: URL

    /// Starts `name` (next to the test bundle, `CommandRunner.productPath`) with `environment` added to this
    /// process's.
    public init(_ name: String, arguments: [String] = [], environment: [String: String] = [:]) throws {
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: logURL.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: logURL.path])
        }
        let log = try FileHandle(forWritingTo: logURL)
        process.executableURL = URL(fileURLWithPath: CommandRunner.productPath(name))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try log.close()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: logURL)
    }

    /// The process id.
    public var pid: Int32 { process.processIdentifier }

    /// Whether the process has not exited yet.
    public var isRunning: Bool { process.isRunning }

    /// What the product has written so far.
    public var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM and waits up to `timeout` for the process to exit: its exit status (negated when a signal
    /// ended it), or nil when it was still running then (it is killed with SIGKILL).
    public func stop(timeout: Duration = .seconds(30)) async -> Int32? {
        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return nil
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus
    }
}

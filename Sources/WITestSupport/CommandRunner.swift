import Foundation
import Synchronization

/// Runs a built product of this package (the `wi` command) and captures what it printed.
public enum CommandRunner {
    /// What a finished process left behind.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The path of a built executable product: next to the running test bundle, in the same build folder.
    public static func productPath(_ name: String) -> String {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        var directory = testBinary.deletingLastPathComponent()
        // Inside an .xctest bundle on macOS the binary is nested deeper; walk up to the build folder.
        while directory.path != "/"
            && !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path)
        {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent(name).path
    }

    /// Runs `executable` with `arguments` in `directory`, with `environment` added to this process's, and waits
    /// for it to exit.
    public static func run(
        _ executable: String, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String] = [:]
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes to the end before waiting, so a chatty child never blocks on a full pipe.
        let errData = DataBox()
        let done = DispatchGroup()
        let errHandle = err.fileHandleForReading
        DispatchQueue.global().async(group: done) { errData.value.withLock { $0 = errHandle.readDataToEndOfFile() } }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.value.withLock { $0 }, as: UTF8.self))
    }
}

/// Bytes filled in by another thread.
private final class DataBox: Sendable {
    let value = Mutex(Data())
}

import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Logging
import WebImage

/// `wi`: the framework's main job from a shell. See `wi --help`.
@main
struct WI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wi",
        abstract: "Load, decode and inspect images with WebImage for Swift on Linux.",
        version: WI.version,
        subcommands: [
            Fetch.self, Info.self, Convert.self, Prefetch.self, Cache.self, Serve.self, DecodeWorkerCommand.self,
        ]
    )

    /// What `wi --version` prints.
    static let version = "0.1.0"

    /// The logger every component of the pipeline gets: with `-v` / `--verbose` anywhere on the command line,
    /// trace-level messages to standard error (the only place where WebImage bootstraps a log handler); else none.
    nonisolated(unsafe) static var logger = Logger.webImageNoOp

    /// Runs the command; usage errors exit with 2 (DESIGN.md), not ArgumentParser's 64, after one line on stderr.
    ///
    /// On the main actor, so that the commands with nothing to await (`info`, `convert`: `ParsableCommand`) run on
    /// the main thread and the process starts no other thread; the others hop to the global executor as before.
    @MainActor static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("-v") || arguments.contains("--verbose") {
            arguments.removeAll { $0 == "-v" || $0 == "--verbose" }
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = .trace
                return handler
            }
            logger = Logger(label: "wi")
        }
        do {
            // `wi serve` also takes its settings from the environment and a configuration file.
            if arguments.first == "serve" {
                do {
                    let settings = try ServeSettings(
                        commandLine: Array(arguments.dropFirst()),
                        environment: ProcessInfo.processInfo.environment)
                    arguments = ["serve"] + settings.arguments
                    Serve.origins = settings.origins
                    Serve.thumborWarning = settings.thumborWarning
                } catch let error as ServeSettingsError {
                    // One line per problem (thumbor's file names each refused line).
                    for line in error.description.split(separator: "\n") { writeToStandardError("wi serve: \(line)\n") }
                    Glibc.exit(2)
                }
            }
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
                Glibc.exit(0)
            }
            if code == .validationFailure {
                // One line, like every other wi error: the reason without ArgumentParser's usage block.
                let reason = Self.message(for: error).split(separator: "\n").first.map(String.init) ?? message
                writeToStandardError("wi: \(reason) (see wi --help)\n")
                Glibc.exit(2)
            }
            if !message.isEmpty { writeToStandardError(message + "\n") }
            Glibc.exit(code.rawValue)
        }
    }
}

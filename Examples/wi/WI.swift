import ArgumentParser
import Foundation
import WebImage

/// `wi`: the framework's main job from a shell. See `wi --help`.
@main
struct WI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wi",
        abstract: "Load, decode and inspect images with WebImage for Swift on Linux.",
        subcommands: [Fetch.self, Info.self, Convert.self, Prefetch.self, Cache.self]
    )

    /// Runs the command; usage errors exit with 2 (DESIGN.md), not ArgumentParser's 64, after one line on stderr.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
                Foundation.exit(0)
            }
            if code == .validationFailure {
                // One line, like every other wi error: the reason without ArgumentParser's usage block.
                let reason = Self.message(for: error).split(separator: "\n").first.map(String.init) ?? message
                FileHandle.standardError.write(Data("wi: \(reason) (see wi --help)\n".utf8))
                Foundation.exit(2)
            }
            if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
            Foundation.exit(code.rawValue)
        }
    }
}

import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImage

/// `wi cache stats|clear|trim [--cache-dir DIR] [--json]`.
struct Cache: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect or empty the disk cache that wi fetch and wi prefetch use.",
        subcommands: [Stats.self, Clear.self, Trim.self]
    )

    struct Location: ParsableArguments {
        @Option(name: .customLong("cache-dir"), help: "The cache folder (default $XDG_CACHE_HOME/wi or ~/.cache/wi).")
        var cacheDirectory: String?

        func open() throws -> DiskCache {
            do {
                return try WICommandCache.diskCache(at: cacheDirectory)
            } catch {
                writeToStandardError("wi cache: \(describe(error))\n")
                throw ExitCode(1)
            }
        }
    }

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Print the number of entries and their bytes.",
            discussion:
                "Example:\n  wi cache stats --json    # {\"path\":\"/home/me/.cache/wi/images\",\"count\":12,\"bytes\":482133}"
        )
        @OptionGroup var location: Location
        @Flag(help: "Print one JSON object.") var json = false

        func run() async throws {
            let cache = try location.open()
            if json {
                print(
                    JSONValue.object([
                        ("path", .string(cache.directory)), ("count", .int(cache.totalCount)),
                        ("bytes", .int(Int(cache.totalSize))),
                    ]).serialized)
            } else {
                print("\(cache.directory)\t\(cache.totalCount) entries\t\(cache.totalSize) bytes")
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear", abstract: "Remove every entry.", discussion: "Example:\n  wi cache clear")
        @OptionGroup var location: Location

        func run() async throws {
            let cache = try location.open()
            do { try await cache.removeAll() } catch {
                writeToStandardError("wi cache clear: \(describe(error))\n")
                throw ExitCode(1)
            }
            print("\(cache.directory)\tcleared")
        }
    }

    struct Trim: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trim",
            abstract: "Remove expired entries (older than a week), then the oldest beyond the size limit.",
            discussion: "Example:\n  wi cache trim --json")
        @OptionGroup var location: Location
        @Flag(help: "Print one JSON object.") var json = false

        func run() async throws {
            let cache = try location.open()
            do {
                let result = try await cache.removeExpired()
                if json {
                    print(
                        JSONValue.object([
                            ("path", .string(cache.directory)), ("expired", .int(result.expiredCount)),
                            ("evicted", .int(result.evictedCount)), ("bytes", .int(Int(result.removedBytes))),
                            ("count", .int(cache.totalCount)),
                        ]).serialized)
                } else {
                    print(
                        "\(cache.directory)\t\(result.expiredCount) expired, \(result.evictedCount) evicted, \(result.removedBytes) bytes freed"
                    )
                }
            } catch {
                writeToStandardError("wi cache trim: \(describe(error))\n")
                throw ExitCode(1)
            }
        }
    }
}

/// Where wi keeps its caches.
enum WICommandCache {
    /// `$XDG_CACHE_HOME/wi`, else `~/.cache/wi`.
    static func defaultDirectory() -> String {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg.appendingPath("wi") }
        return SystemFile.homeDirectory.appendingPath(".cache/wi")
    }

    /// The disk cache in `directory` (default location when nil); sizes are file sizes, as `ls` shows them.
    static func diskCache(at directory: String?) throws -> DiskCache {
        var configuration = DiskCache.Configuration()
        configuration.sizeAccounting = .logical
        configuration.trimInterval = nil  // a command-line run is short; `wi cache trim` trims on demand
        configuration.logger = WI.logger
        return try DiskCache(name: "images", root: directory ?? defaultDirectory(), configuration: configuration)
    }
}

import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImage
#if canImport(Glibc)
import Glibc
#endif

/// `wi prefetch --from FILE [--concurrency N]`: warm the caches with a list of URLs.
struct Prefetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Load a list of URLs into the caches, a few at a time, with progress and a summary.",
        discussion: """
            FILE has one URL (or path) per line; blank lines and lines starting with # are skipped. On a terminal a \
            progress bar shows counts, rate and ETA; otherwise one line per URL (a JSON object with --json, fields as \
            wi fetch, and the summary last as an object too). Exit code 0 when all loaded, 1 when any failed.

            Example:
              wi prefetch --from urls.txt --concurrency 8
            """
    )

    @Option(name: .customLong("from"), help: "The file listing the URLs.") var listFile: String
    @Option(help: "Loads at once.") var concurrency: Int = 3
    @Option(name: .customLong("cache-dir"), help: "The disk cache folder (default $XDG_CACHE_HOME/wi or ~/.cache/wi).")
    var cacheDirectory: String?
    @Flag(help: "Print one JSON object per URL, and the summary as one.") var json = false

    func validate() throws {
        guard (1...1024).contains(concurrency) else {
            throw ValidationError("--concurrency must be in 1...1024, got \(concurrency)")
        }
    }

    func run() async throws {
        guard let text = try? String(contentsOfFile: listFile, encoding: .utf8) else {
            writeToStandardError("wi prefetch: cannot read \(listFile)\n")
            throw ExitCode(1)
        }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingSpacesAndTabs() }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        var urls: [URL] = []
        for line in lines {
            guard let url = commandLineURL(line) else {
                writeToStandardError("wi prefetch: not a URL or path: \(line)\n")
                throw ExitCode(2)
            }
            urls.append(url)
        }
        let setup: WICommandSetup
        do {
            setup = try WICommandSetup(cacheDirectory: cacheDirectory, useDiskCache: true)
        } catch {
            writeToStandardError("wi prefetch: \(describe(error))\n")
            throw ExitCode(1)
        }
        let prefetcher = ImagePrefetcher(
            manager: setup.manager, maxConcurrentLoads: concurrency,
            options: [.lowPriority, .queryMemoryData, .waitStoreCache])
        let display = PrefetchDisplay(total: urls.count, json: json, terminal: isatty(STDOUT_FILENO) == 1)
        let summary = await withCheckedContinuation { continuation in
            prefetcher.prefetch(urls) { _, _ in
                continuation.resume(returning: display.finish())
            } progress: { event in
                display.record(event)
            }
        }
        print(json ? summary.jsonLine : summary.text)
        if summary.failed > 0 { throw ExitCode(1) }
    }
}

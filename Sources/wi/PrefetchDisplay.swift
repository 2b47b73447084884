#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WebImage

/// Shows a prefetch: a live progress bar on a terminal, one line per URL otherwise, and the summary.
///
/// Thread safety: every method takes the lock; the prefetcher reports from several tasks.
final class PrefetchDisplay: Sendable {
    struct Summary {
        var loaded = 0, fromMemory = 0, fromDisk = 0, failed = 0, bytes = 0
        var elapsed = Duration.zero

        var text: String {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return
                "prefetched \(loaded + fromMemory + fromDisk + failed): \(loaded) loaded, \(fromMemory) from memory, "
                + "\(fromDisk) from disk, \(failed) failed, \(bytes) bytes in " + decimal(seconds, places: 2) + " s"
        }

        /// The summary as the last line of a `--json` stream: a JSON object too, so every line parses (the counts
        /// as `text` has them, snake_case as the URL lines; `ms` the whole run).
        var jsonLine: String {
            let milliseconds =
                elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
            return JSONValue.object([
                ("prefetched", .int(loaded + fromMemory + fromDisk + failed)), ("loaded", .int(loaded)),
                ("from_memory", .int(fromMemory)), ("from_disk", .int(fromDisk)), ("failed", .int(failed)),
                ("bytes", .int(bytes)), ("ms", .int(Int(milliseconds))),
            ]).serialized
        }
    }

    private let state = Mutex(Summary())
    private let total: Int
    private let json: Bool
    private let terminal: Bool
    private let started = ContinuousClock.now

    init(total: Int, json: Bool, terminal: Bool) {
        self.total = total
        self.json = json
        self.terminal = terminal
    }

    func record(_ event: ImagePrefetcher.Progress) {
        let report = FetchReport(
            url: event.url.absoluteString, result: event.result,
            milliseconds: WICommandSetup.milliseconds(event.duration))
        state.withLock { s in
            switch event.result {
            case .success(let value):
                switch value.cacheType {
                case .memory: s.fromMemory += 1
                case .disk: s.fromDisk += 1
                default: s.loaded += 1
                }
                s.bytes += value.data?.count ?? 0
            case .failure(let error):
                s.failed += 1
                let line =
                    (terminal ? "\r\u{1B}[K" : "") + "wi prefetch: \(event.url.absoluteString): \(describe(error))\n"
                writeToStandardError(line)
            }
            if terminal && !json {
                print("\r\u{1B}[K" + bar(done: event.finished), terminator: "")
                fflush(nil)  // nil flushes every output stream (Swift 6 forbids touching the global stdout)
            } else {
                print(json ? report.jsonLine : report.tableRow.joined(separator: "\t"))
            }
        }
    }

    func finish() -> Summary {
        state.withLock { s in
            s.elapsed = ContinuousClock.now - started
            if terminal && !json { print("") }
            return s
        }
    }

    /// `[#########.........]  45/100  12.3/s  ETA 4s`
    private func bar(done: Int) -> String {
        let width = 30
        let filled = total == 0 ? width : width * done / total
        let elapsed = ContinuousClock.now - started
        let seconds = max(0.001, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        let rate = Double(done) / seconds
        let eta = rate > 0 ? Int((Double(total - done) / rate).rounded(.up)) : 0
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]  "
            + "\(done)/\(total)  " + decimal(rate, places: 1) + "/s  ETA \(eta)s"
    }
}

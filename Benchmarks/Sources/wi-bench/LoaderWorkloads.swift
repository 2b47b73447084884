// Loader workload of `wi-bench`: many URLs through CurlImageLoader's public API, data only (no decode), which
// `Benchmarks/compare` runs against `curl --parallel` on the same URL list and the same local nginx.
import BenchSupport
import Foundation
import Synchronization
import WebImage

/// `loader-fetch LIST`: loads every URL of LIST (one a line) with 6 transfers at once, as an app's prefetch would:
/// every request handed to the loader at once, the loader queueing what exceeds its limit. Waits for the last
/// completion, then prints `done`, `failed` and `bytes` (compare times the whole process, wall and CPU).
func loaderFetch(listPath: String) throws(ImageError) {
    let urls = BenchURLList.read(listPath)
    var configuration = CurlImageLoader.Configuration()
    configuration.maxConcurrentTransfers = 6
    let loader = try CurlImageLoader(configuration: configuration)
    let tally = BatchTally(expected: urls.count)
    var operations: [any ImageLoading.Operation] = []
    operations.reserveCapacity(urls.count)
    for url in urls {
        operations.append(
            loader.load(ImageLoading.Request(url: url), events: { _ in }) { result in
                switch result {
                case .success(let value): tally.succeeded(bytes: value.data.count)
                case .failure(let error): tally.failed("\(url): \(error)")
                }
            })
    }
    tally.wait()
    tally.report()
}

/// URL lists written by `Benchmarks/compare`: one absolute URL a line.
enum BenchURLList {
    static func read(_ path: String) -> [URL] {
        let text = String(decoding: BenchPaths.read(path), as: UTF8.self)
        let urls = text.split(separator: "\n").map { line -> URL in
            guard let url = URL(string: String(line)) else { fail("\(path): not a URL: \(line)") }
            return url
        }
        guard !urls.isEmpty else { fail("\(path): no URLs") }
        return urls
    }
}

/// Counts the completions of a batch of loads from any thread; `wait()` returns after the last one.
final class BatchTally: Sendable {
    private struct Counts {
        var done = 0, failed = 0, bytes = 0
        var firstError: String?
    }
    private let counts = Mutex(Counts())
    private let expected: Int
    private let finished = DispatchSemaphore(value: 0)

    init(expected: Int) { self.expected = expected }

    func succeeded(bytes: Int) {
        record {
            $0.done += 1
            $0.bytes += bytes
        }
    }

    func failed(_ message: String) {
        record {
            $0.failed += 1
            $0.firstError = $0.firstError ?? message
        }
    }

    private func record(_ change: (inout Counts) -> Void) {
        let complete = counts.withLock { counts -> Bool in
            change(&counts)
            return counts.done + counts.failed == expected
        }
        if complete { finished.signal() }
    }

    /// Blocks the calling (non-cooperative) thread until every load of the batch has completed.
    func wait() { finished.wait() }

    /// Prints `done N`, `failed N`, `bytes N` on stdout and the first error, if any, on stderr.
    func report() {
        let counts = counts.withLock { $0 }
        print("done", counts.done)
        print("failed", counts.failed)
        print("bytes", counts.bytes)
        if let error = counts.firstError { FileHandle.standardError.write(Data("first error: \(error)\n".utf8)) }
    }
}

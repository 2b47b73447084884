// Loader: CurlImageLoader fetching 1,000 x 20 KB files from a local nginx, 6 transfers at once, data only (no
// decode). Skipped, with a message, when nginx is not installed (`make bench` installs it).
import Benchmark
import BenchSupport
import Foundation
import Synchronization
import WebImage

let files = 1_000
let fileSize = 20 * 1024

/// The running server and its URLs, between `Benchmark.setup` and `Benchmark.teardown` (only the process that runs
/// the benchmarks starts one; the one that merely lists them does not).
let served = Mutex<(server: LocalNginx, urls: [URL])?>(nil)
let root = NSTemporaryDirectory() + "wi-bench-loader-\(getpid())"

/// Writes `files` x 20 KB to a temporary folder and serves it.
func startServer() throws {
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    let body = Data((0..<fileSize).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) })
    for i in 0..<files { try body.write(to: URL(fileURLWithPath: root + "/f\(i).bin")) }
    let server = try LocalNginx(root: root)
    served.withLock { $0 = (server, (0..<files).map { server.url("f\($0).bin") }) }
}

let benchmarks: @Sendable () -> Void = {
    guard LocalNginx.executable != nil else {
        print("Loader: nginx not found on PATH or in /usr/sbin (apt-get install nginx); benchmarks skipped")
        return
    }
    Benchmark.setup = { try startServer() }
    Benchmark.teardown = {
        served.withLock { $0?.server.stop(); $0 = nil }
        try? FileManager.default.removeItem(atPath: root)
    }
    Benchmark(
        "fetch 1,000 x 20 KB, 6 at once (local nginx)",
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident, .throughput],
            maxDuration: .seconds(10), maxIterations: 20
        )
    ) { benchmark in
        guard let urls = served.withLock({ $0?.urls }) else { throw LocalServerError("nginx is not running") }
        var configuration = CurlImageLoader.Configuration()
        configuration.maxConcurrentTransfers = 6
        let loader = try CurlImageLoader(configuration: configuration)   // throws only for a bad configuration
        for _ in benchmark.scaledIterations {
            let bytes = try await withThrowingTaskGroup(of: Int.self) { group in
                for url in urls { group.addTask { try await loader.load(ImageLoading.Request(url: url)).data.count } }
                return try await group.reduce(0, +)
            }
            guard bytes == files * fileSize else { throw LocalServerError("loaded \(bytes) bytes") }
        }
    }
}

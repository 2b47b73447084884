// DiskCache: warm read of a 20 KB entry, 20 KB writes, and the first query and a trim on a directory of
// 100k entries.
import Benchmark
import BenchSupport
import Foundation
import WebImage

/// A fresh temporary directory for one benchmark.
func temporaryDirectory(_ name: String) -> String {
    let path = NSTemporaryDirectory() + "wi-bench-\(name)-\(getpid())"
    try? FileManager.default.removeItem(atPath: path)
    return path
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(3),
        maxIterations: 100_000
    )
    Benchmark("disk read 20 KB warm") { benchmark in
        let directory = temporaryDirectory("read")
        _ = try DiskWorkloads.prepareRead(directory)
        let cache = try DiskWorkloads.open(directory)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try cache.readData(forKey: DiskWorkloads.readKey)) }
        benchmark.stopMeasurement()
        try? FileManager.default.removeItem(atPath: directory)
    }
    Benchmark("disk write 20 KB") { benchmark in
        let directory = temporaryDirectory("write")
        let cache = try DiskWorkloads.open(directory)
        var i = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try cache.store(DiskWorkloads.entry20KB, forKey: "write-\(i).jpg")
            i += 1
        }
        benchmark.stopMeasurement()
        try? FileManager.default.removeItem(atPath: directory)
    }
    // Each sample fills a fresh directory of 100k entries first (seconds), so: no warm-up, two samples.
    let directoryConfiguration = Benchmark.Configuration(
        warmupIterations: 0, maxDuration: .seconds(60), maxIterations: 2
    )
    Benchmark("disk first query, 100k entries", configuration: directoryConfiguration) { benchmark in
        let directory = temporaryDirectory("open")
        try DiskWorkloads.populate(directory, count: 100_000)
        benchmark.startMeasurement()
        let cache = try DiskWorkloads.open(directory)
        blackHole(cache.containsData(forKey: DiskWorkloads.populatedKey(50_000)))
        benchmark.stopMeasurement()
        try? FileManager.default.removeItem(atPath: directory)
    }
    Benchmark("disk trim 100k entries to half", configuration: directoryConfiguration) { benchmark in
        let directory = temporaryDirectory("trim")
        try DiskWorkloads.populate(directory, count: 100_000)
        let limit = try DiskWorkloads.open(directory).totalSize / 2
        let trimmer = try DiskWorkloads.open(directory, sizeLimit: limit)
        benchmark.startMeasurement()
        blackHole(try trimmer.removeExpired())
        benchmark.stopMeasurement()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

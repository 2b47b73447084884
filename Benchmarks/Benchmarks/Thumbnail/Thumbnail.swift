// Thumbnail: the 4000x3000 q90 photo-like JPEG to a 256 px thumbnail (DCT-scaled decode plus the remaining
// resample), alone and encoded back to JPEG as vipsthumbnail does.
import Benchmark
import BenchSupport
import Foundation

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(3),
        maxIterations: 200
    )
    Benchmark("thumbnail 4000x3000 jpeg -> 256") { benchmark in
        let data = BenchPaths.read(BenchPaths.photo)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try Workloads.thumbnail(data, size: 256)) }
    }
    Benchmark("thumbnail 4000x3000 jpeg -> 256 -> jpeg q75") { benchmark in
        let data = BenchPaths.read(BenchPaths.photo)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try Workloads.thumbnailJPEG(data, size: 256)) }
    }
}

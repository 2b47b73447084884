// Transform: WITransform's resize (4000x3000 -> 256x192 and 1000x1000 -> 2000x2000) and blur (r = 10 on
// 1000x1000) on images decoded once, as Benchmarks/compare measures them against Pillow.
import Benchmark
import BenchSupport
import Foundation

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(3),
        maxIterations: 200
    )
    let jobs: [(name: String, input: String, transform: CodecWorkloads.Transform)] = [
        ("resize 4000x3000 -> 256x192", BenchPaths.photo, .resize(width: 256, height: 192)),
        ("resize 1000x1000 -> 2000x2000", BenchPaths.photo1000, .resize(width: 2000, height: 2000)),
        ("gaussian blur r=10, 1000x1000", BenchPaths.photo1000, .blur(radius: 10)),
    ]
    for job in jobs {
        Benchmark(job.name) { benchmark in
            let image = try CodecWorkloads.transformInput(job.input)
            let transformer = try job.transform.transformer()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try transformer.transform(image)) }
        }
    }
}

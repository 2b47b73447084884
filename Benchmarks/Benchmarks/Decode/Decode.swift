// Decode: one full decode to 8-bit RGBA per fixture set (DecodeSets), of the 4000x3000 photo-like JPEG, of the two
// WebPs and of every frame of the 100-frame GIF and APNG (the generated inputs `Benchmarks/compare` uses too).
import Benchmark
import BenchSupport
import Foundation

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(3),
        maxIterations: 1000
    )
    for (format, _) in DecodeSets.files {
        let files = DecodeSets.paths(format).map { BenchPaths.read($0) }
        Benchmark("decode \(format) fixtures (\(files.count) files)") { benchmark in
            for _ in benchmark.scaledIterations {
                for data in files { blackHole(try Workloads.decode(data)) }
            }
        }
    }
    Benchmark("decode jpeg 4000x3000 q90", configuration: .init(maxIterations: 20)) { benchmark in
        let data = BenchPaths.read(BenchPaths.photo)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try Workloads.decode(data)) }
    }
    let generated = [
        ("webp 2000x1500 lossy", BenchPaths.webpPhoto), ("webp 1000x750 lossless", BenchPaths.webpGraphic),
        ("gif 480x360 all 100 frames", BenchPaths.animatedGIF), ("apng 480x360 all 100 frames", BenchPaths.animatedPNG),
    ]
    for (name, path) in generated {
        Benchmark("decode \(name)", configuration: .init(maxIterations: 50)) { benchmark in
            let data = BenchPaths.read(path)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try Workloads.decode(data)) }
        }
    }
}

// Pipeline: the ImageManager's own cost, with a loader that answers at once from memory so that no network, disk
// or server time is in the numbers: a load the memory cache answers, and 100 concurrent loads of one URL that
// the pipeline coalesces into one load and one decode.
import Benchmark
import BenchSupport
import Foundation
import Synchronization
import WebImage

/// Answers every request with the same bytes from another thread, without any I/O; counts its loads.
final class InstantLoader: ImageLoader {
    let data: Data
    let loads = Atomic<Int>(0)

    init(data: Data) { self.data = data }

    func canLoad(_ url: URL) -> Bool { true }

    func load(_ request: ImageLoading.Request, events: @escaping @Sendable (ImageLoading.Event) -> Void,
              completion: @escaping @Sendable (Result<ImageLoadResult, ImageError>) -> Void) -> any ImageLoading.Operation
    {
        loads.add(1, ordering: .relaxed)
        let data = data
        DispatchQueue.global().async { completion(.success(ImageLoadResult(data: data))) }
        return InstantOperation()
    }

    struct InstantOperation: ImageLoading.Operation {
        func cancel() {}
        func setPriority(_ priority: ImageLoading.Priority) {}
    }
}

/// A manager with a memory cache only (no disk tier) over `loader`, with every coder.
func makeManager(_ loader: InstantLoader) -> ImageManager {
    let coders = WebImage.makeCoders()
    let cache = TieredImageCache(memory: MemoryCache(), dataTiers: [], coders: coders)
    return ImageManager(cache: cache, loader: loader, coders: coders)
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .throughput]
    // A small real image: the memory-hit path never decodes it, the coalesced path decodes it once per batch.
    let image = BenchPaths.read(BenchPaths.fixtures + "/formats/sample.png")

    Benchmark(
        "memory hit (loadImage of a cached URL)",
        configuration: .init(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(3))
    ) { benchmark in
        let manager = makeManager(InstantLoader(data: image))
        let url = URL(string: "https://images.example/hit.png")!
        _ = try await manager.loadImage(with: url, options: [.waitStoreCache])
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let result = try await manager.loadImage(with: url)
            guard result.cacheType == .memory else { throw LocalServerError("not a memory hit: \(result.cacheType)") }
        }
        benchmark.stopMeasurement()
    }

    let callers = 100
    let loaderCalls = BenchmarkMetric.custom("loader calls per batch", polarity: .prefersSmaller,
                                             useScalingFactor: false)
    Benchmark(
        "coalesced: \(callers) concurrent loads of one URL",
        configuration: .init(metrics: metrics + [loaderCalls], maxDuration: .seconds(3))
    ) { benchmark in
        let loader = InstantLoader(data: image)
        let manager = makeManager(loader)
        var batch = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            batch += 1
            let url = URL(string: "https://images.example/coalesced-\(batch).png")!   // a miss every batch
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<callers { group.addTask { _ = try await manager.loadImage(with: url) } }
                try await group.waitForAll()
            }
        }
        benchmark.stopMeasurement()
        benchmark.measurement(loaderCalls, loader.loads.load(ordering: .relaxed) / max(batch, 1))
    }
}

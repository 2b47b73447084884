// wi-before-after ROW N FILE...: runs one row N times and prints `seconds <per-op seconds> cpu <per-op CPU seconds>`
// (the process's CPU time, every thread). The source builds
// against the current API and the one before the telemetry work (a814a8f), so both sides run the same code.
//   hit-async N FILE      `loadImage` (async) of a URL the memory cache holds; the real curl loader (whose request
//                         identity the manager asks for on every load), a memory-only cache, PNG + JPEG coders
//   hit-callback N FILE   the same through the callback form, waiting for each completion
//   load-decode N FILE    `loadImage` with no cache: a loader that answers at once with FILE's bytes, then the decode
//   decode N FILE...      the coders' decode of every FILE (no manager)
import Dispatch
import Foundation
import WICacheMemory
import WICoderJPEG
import WICoderPNG
import WICore
import WILoaderCurl

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("wi-before-after: \(message)\n".utf8))
    exit(2)
}

/// Answers every request with the same bytes from another thread, without I/O.
final class InstantLoader: ImageLoader {
    let data: Data
    init(data: Data) { self.data = data }
    func canLoad(_ url: URL) -> Bool { true }
    func load(_ request: ImageLoading.Request, events: @escaping @Sendable (ImageLoading.Event) -> Void,
              completion: @escaping @Sendable (Result<ImageLoadResult, ImageError>) -> Void) -> any ImageLoading.Operation
    {
        let data = data
        DispatchQueue.global().async { completion(.success(ImageLoadResult(data: data))) }
        return InstantOperation()
    }

    struct InstantOperation: ImageLoading.Operation {
        func cancel() {}
        func setPriority(_ priority: ImageLoading.Priority) {}
    }
}

/// The CPU time of the whole process so far (every thread), in seconds.
func processCPU() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// CPU seconds the process spent in the last `seconds` call (on a loaded machine a steadier measure than wall time).
nonisolated(unsafe) var cpuElapsed = 0.0

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    let cpuStart = processCPU()
    try await body()
    cpuElapsed = processCPU() - cpuStart
    let (s, atto) = (ContinuousClock.now - start).components
    return Double(s) + Double(atto) / 1e18
}

let coders = ImageCodersManager(coders: [PNGCoder(), JPEGCoder()])

/// A manager over the curl loader (file URLs allowed, the Accept header `WebImage.makeManager()` sends) and a
/// memory-only cache, with `path` loaded once so that its URL is a memory hit.
func hitManager(_ path: String) async throws -> (ImageManager, URL) {
    var configuration = CurlImageLoader.Configuration()
    configuration.accept = CurlImageLoader.Configuration.acceptHeader(for: coders.decodingFormats)
    configuration.allowedSchemes = ["http", "https", "file"]
    let loader = try CurlImageLoader(configuration: configuration)
    let cache = TieredImageCache(memory: MemoryCache(), dataTiers: [], coders: coders)
    let manager = ImageManager(cache: cache, loader: loader, coders: coders)
    let url = URL(fileURLWithPath: path)
    let first = try await manager.loadImage(with: url, options: .waitStoreCache)
    guard first.cacheType == .none else { fail("the first load was not from the loader") }
    return (manager, url)
}

var args = Array(CommandLine.arguments.dropFirst())
guard args.count >= 3, let iterations = Int(args[1]), iterations > 0 else {
    fail("usage: wi-before-after hit-async|hit-callback|load-decode|decode N FILE...")
}
let row = args[0]
let files = Array(args.dropFirst(2))
var elapsed = 0.0
switch row {
case "hit-async":
    let (manager, url) = try await hitManager(files[0])
    elapsed = try await seconds {
        for _ in 0..<iterations {
            guard try await manager.loadImage(with: url).cacheType == .memory else { fail("not a memory hit") }
        }
    }
case "hit-callback":
    let (manager, url) = try await hitManager(files[0])
    let done = DispatchSemaphore(value: 0)
    elapsed = await seconds {
        await Task.detached {
            for _ in 0..<iterations {
                manager.loadImage(with: url) { result in
                    guard (try? result.get())?.cacheType == .memory else { fail("not a memory hit") }
                    done.signal()
                }
                done.wait()
            }
        }.value
    }
case "load-decode":
    guard let data = FileManager.default.contents(atPath: files[0]) else { fail("cannot read \(files[0])") }
    let manager = ImageManager(cache: TieredImageCache(memory: nil, dataTiers: [], coders: coders),
                               loader: InstantLoader(data: data), coders: coders)
    let url = URL(string: "https://images.example/" + (files[0] as NSString).lastPathComponent)!
    _ = try await manager.loadImage(with: url)
    elapsed = try await seconds {
        for _ in 0..<iterations {
            guard try await manager.loadImage(with: url).cacheType == .none else { fail("a cache answered") }
        }
    }
case "decode":
    let blobs = files.map { path -> Data in
        guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
        return data
    }
    for data in blobs { _ = try coders.decode(data, options: DecodeOptions()) }
    elapsed = try await seconds {
        for _ in 0..<iterations { for data in blobs { _ = try coders.decode(data, options: DecodeOptions()) } }
    }
default:
    fail("unknown row \(row)")
}
print("seconds", elapsed / Double(iterations), "cpu", cpuElapsed / Double(iterations))

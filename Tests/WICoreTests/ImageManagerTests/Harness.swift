import Foundation
import Synchronization
import WICore
import WITestSupport

/// A manager over mocks: memory + data tier, a gated loader, a sized mock coder.
struct Harness {
    let memory = MockMemoryCache()
    let disk = MockDataCache()
    let loader = MockLoader()
    let coder = MockCoder(magic: "MOCK", marker: 7)
    let cache: TieredImageCache
    let manager: ImageManager

    init(
        transformer: (any ImageTransformer)? = nil, cacheKeyFilter: (any CacheKeyFilter)? = nil,
        cacheSerializer: (any CacheSerializer)? = nil, optionsProcessor: (any ImageOptionsProcessor)? = nil,
        delegate: (any ImageManagerDelegate)? = nil, decodeGate: TestLatch? = nil
    ) {
        let coder = self.coder
        let coders = ImageCodersManager(coders: [decodeGate.map { GatedCoder(coder, gate: $0) } ?? coder])
        // Every harness has pools of its own (the manager's CPU pool, the cache's I/O pool), ended by `shutdown()`.
        cache = TieredImageCache(memory: memory, dataTiers: [disk], coders: coders)
        var configuration = ImageManager.Configuration(cache: cache, loader: loader, coders: coders)
        configuration.transformer = transformer
        configuration.cacheKeyFilter = cacheKeyFilter
        configuration.cacheSerializer = cacheSerializer
        configuration.optionsProcessor = optionsProcessor
        configuration.delegate = delegate
        configuration.owning = [cache]
        manager = ImageManager(configuration: configuration)
    }

    /// A mock URL serving a `width` x `height` image.
    func serve(_ name: String, width: Int = 40, height: Int = 20) -> URL {
        let url = URL(string: "mock://host/\(name)")!
        loader.register(url, data: coder.data(width: width, height: height, extra: name))
        return url
    }
}

/// Counts completions per key from many threads.
final class Tally: Sendable {
    private let counts = Mutex([String: Int]())
    func add(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }
    subscript(_ key: String) -> Int { counts.withLock { $0[key] ?? 0 } }
    var total: Int { counts.withLock { $0.values.reduce(0, +) } }
}

/// Waits (polling, bounded) until `condition` holds; for state reached on other threads. The bound is generous
/// because the whole suite runs in parallel on 2 cores; it returns as soon as the condition holds.
/// It runs on the caller's actor (e.g. the main actor for target-binding tests).
func eventually(_ seconds: Double = 30, isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool) async
    -> Bool
{
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}

/// Holds the threads that wait on it until `open()`: work in flight stays in flight while a test checks who joined.
final class TestLatch: Sendable {
    private let state = Mutex(false)
    private let condition = DispatchSemaphore(value: 0)

    func open() {
        state.withLock { $0 = true }
        condition.signal()
    }

    /// Blocks until `open()` (a pool thread; never a task's).
    func wait() {
        while !state.withLock({ $0 }) {
            condition.wait()
            condition.signal()  // let the next waiter through too
        }
    }
}

/// A coder whose decodes wait for a latch.
final class GatedCoder: ImageCoder, Sendable {
    let coder: MockCoder
    let gate: TestLatch
    init(_ coder: MockCoder, gate: TestLatch) {
        self.coder = coder
        self.gate = gate
    }
    var decodingFormats: [ImageFormat] { coder.decodingFormats }
    func canDecode(_ data: Data) -> Bool { coder.canDecode(data) }
    func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        gate.wait()
        return try coder.decode(data, options: options)
    }
    func canEncode(to format: ImageFormat) -> Bool { coder.canEncode(to: format) }
    func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        try coder.encode(image, as: format, options: options)
    }
}

/// A transformer whose steps wait for a latch.
final class GatedTransformer: ImageTransformer, Sendable {
    let transformer: MockTransformer
    let gate: TestLatch
    init(_ transformer: MockTransformer, gate: TestLatch) {
        self.transformer = transformer
        self.gate = gate
    }
    var key: String { transformer.key }
    var callCount: Int { transformer.callCount }
    func transform(_ image: Image) throws(ImageError) -> Image {
        gate.wait()
        return try transformer.transform(image)
    }
}

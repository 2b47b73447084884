import Foundation
import Synchronization
import WICore
@testable import WICacheMemory

/// A pressure source the test fires by hand.
final class FakePressureSource: MemoryPressureSource {
    private let handlers = Mutex<[Int: @Sendable (MemoryPressureLevel) -> Void]>([:])
    private let nextID = Mutex(0)

    var subscriberCount: Int { handlers.withLock { $0.count } }

    func subscribe(_ handler: @escaping @Sendable (MemoryPressureLevel) -> Void) -> CancellationToken {
        let id = nextID.withLock { value in
            value += 1
            return value
        }
        handlers.withLock { $0[id] = handler }
        return CancellationToken { _ = self.handlers.withLock { $0.removeValue(forKey: id) } }
    }

    func fire(_ level: MemoryPressureLevel) {
        for handler in handlers.withLock({ Array($0.values) }) { handler(level) }
    }
}

/// A one-row RGBA8 image whose cost is exactly `cost` bytes (a multiple of 4).
func makeImage(cost: Int) -> Image {
    precondition(cost > 0 && cost % 4 == 0)
    return Image(pixels: try! PixelBuffer(width: cost / 4, height: 1, format: .rgba8))
}

/// The key-hash secret of the caches tests make: with a cache's own random secret, which keys share a sketch
/// counter changed from run to run, and an eviction order that depends on a tie failed about once in 150 runs.
let fixedKeySecret: KeyHash.Secret =
    (0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7345, 0xA409_3822_299F_31D1, 0x082E_FA98_EC4E_6C89)

/// A cache that hashes its keys under `fixedKeySecret`, so that every run makes the same choices.
func makeFixedCache(_ configuration: MemoryCache.Configuration) -> MemoryCache {
    MemoryCache(configuration: configuration, clock: ContinuousClock(), pressureSource: nil, keySecret: fixedKeySecret)
}

/// A single-shard cache (exact, documented eviction order) with the weak tier off unless asked.
func makeCache(
    policy: MemoryCache.EvictionPolicy = .clock, costLimit: Int = 1 << 30, countLimit: Int = .max,
    maxEntryCostRatio: Double = 0.1, weak: Bool = false, ttl: Duration? = nil
) -> MemoryCache {
    makeFixedCache(
        .init(
            costLimit: costLimit, countLimit: countLimit, maxEntryCostRatio: maxEntryCostRatio,
            evictionPolicy: policy, usesWeakTier: weak, timeToLive: ttl, shardCount: 1))
}

/// The keys among `keys` held in the strong tier, in the order given.
func present(_ cache: MemoryCache, _ keys: [String]) -> [String] {
    keys.filter { cache.containsImage(forKey: $0) }
}

/// Runs `body(0..<count)` on `count` dedicated threads and waits without holding a cooperative thread, so CPU-heavy
/// tests never starve the async tests that run beside them.
func onThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) async -> [T] {
    await withTaskGroup(of: (Int, T).self) { group in
        for index in 0..<count {
            group.addTask {
                await withCheckedContinuation { continuation in
                    Thread { continuation.resume(returning: (index, body(index))) }.start()
                }
            }
        }
        var results = [(Int, T)]()
        for await result in group { results.append(result) }
        return results.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

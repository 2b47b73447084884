// Redis: hits of the Redis tier (RedisCache against a local redis-server) for 4 KB, 100 KB and 1 MB entries and a
// pipelined multi-get of 100 x 4 KB, next to DiskCache reads of the same entries. Skipped, with a message, when
// redis-server is not installed (Scripts/install-deps installs it).
import Benchmark
import BenchSupport
import Foundation
import Synchronization
import WebImage

/// The running server and a tier on it, between `Benchmark.setup` and `Benchmark.teardown` (only the process that
/// runs the benchmarks starts one; the one that merely lists them does not).
let served = Mutex<(server: LocalServerProcess, redis: RedisCache)?>(nil)
let directory = NSTemporaryDirectory() + "wi-bench-redis-disk-\(getpid())"

/// The Redis tier of the running server.
func redisTier() throws -> RedisCache {
    guard let redis = served.withLock({ $0?.redis }) else { throw LocalServerError("redis-server is not running") }
    return redis
}

let benchmarks: @Sendable () -> Void = {
    guard LocalRedis.executable != nil else {
        print("Redis: redis-server not found (apt-get install redis-server); benchmarks skipped")
        return
    }
    Benchmark.setup = {
        let server = try LocalRedis.start()
        var configuration = RedisCache.Configuration(host: "127.0.0.1", port: server.port)
        configuration.namespace = "wi-bench:"
        let redis = try RedisCache(configuration: configuration)
        served.withLock { $0 = (server, redis) }
    }
    Benchmark.teardown = {
        served.withLock { $0?.server.stop(); $0 = nil }
        try? FileManager.default.removeItem(atPath: directory)
    }
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput], maxDuration: .seconds(2)
    )
    for (label, size) in CacheEntries.sizes {
        let key = CacheEntries.key(size)
        Benchmark("redis hit \(label)") { benchmark in
            let redis = try redisTier()
            try redis.store(CacheEntries.bytes(size), forKey: key)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try redis.readData(forKey: key)) }
        }
        Benchmark("disk hit \(label)") { benchmark in
            let disk = try DiskWorkloads.open(directory)
            try disk.store(CacheEntries.bytes(size), forKey: key)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try disk.readData(forKey: key)) }
        }
    }
    let keys = CacheEntries.batchKeys
    Benchmark("redis multi-get 100 x 4 KB (one pipeline)") { benchmark in
        let redis = try redisTier()
        for key in keys { try redis.store(CacheEntries.bytes(4 << 10), forKey: key) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            guard try redis.readData(forKeys: keys).count == keys.count else { throw LocalServerError("missed") }
        }
    }
    Benchmark("disk reads 100 x 4 KB") { benchmark in
        let disk = try DiskWorkloads.open(directory)
        for key in keys { try disk.store(CacheEntries.bytes(4 << 10), forKey: key) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { for key in keys { blackHole(try disk.readData(forKey: key)) } }
    }
}

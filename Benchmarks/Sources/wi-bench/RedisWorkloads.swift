// Redis workload of `wi-bench`: hits of the Redis tier against reads of the disk tier, same entries, same run.
import BenchSupport
import Foundation
import WebImage

/// `redis-hits PORT DIR ITERATIONS`: stores entries of 4 KB, 100 KB and 1 MB in RedisCache (the redis-server on
/// 127.0.0.1:PORT) and in a DiskCache on DIR, checks both read them back unchanged, then times hits of each size
/// on both tiers (ITERATIONS reads of 4 KB, as many bytes but at least 100 reads of the larger ones). Then 100 x 4 KB
/// entries: one pipelined multi-get from Redis, 100 single Redis GETs, and 100 disk reads. Prints
/// `redis_<size> / disk_<size>` seconds per read and `redis_mget100 / redis_get100 / disk_get100` per batch.
func redisHits(port: Int, directory: String, iterations: Int) throws {
    var configuration = RedisCache.Configuration(host: "127.0.0.1", port: port)
    configuration.namespace = "wi-bench:"
    configuration.warningHandler = { fail("redis-hits: \($0)") }
    let redis = try RedisCache(configuration: configuration)
    let disk = try DiskWorkloads.open(directory)

    for (label, size) in CacheEntries.sizes {
        let key = CacheEntries.key(size)
        let data = CacheEntries.bytes(size)
        let reads = max(100, iterations * (4 << 10) / size)
        try redis.store(data, forKey: key)
        try disk.store(data, forKey: key)
        guard try redis.readData(forKey: key) == data, try disk.readData(forKey: key) == data else {
            fail("redis-hits: a \(label) entry did not read back unchanged")
        }
        let redisSeconds = try BenchClock.seconds { for _ in 0..<reads { _ = try redis.readData(forKey: key) } }
        let diskSeconds = try BenchClock.seconds { for _ in 0..<reads { _ = try disk.readData(forKey: key) } }
        print("redis_\(label)", redisSeconds / Double(reads))
        print("disk_\(label)", diskSeconds / Double(reads))
    }

    let keys = CacheEntries.batchKeys
    let entry = CacheEntries.bytes(4 << 10)
    for key in keys {
        try redis.store(entry, forKey: key)
        try disk.store(entry, forKey: key)
    }
    guard try redis.readData(forKeys: keys).count == keys.count else { fail("redis-hits: multi-get missed entries") }
    let batches = max(1, iterations / 100)
    let multiGet = try BenchClock.seconds { for _ in 0..<batches { _ = try redis.readData(forKeys: keys) } }
    let singleGets = try BenchClock.seconds {
        for _ in 0..<batches { for key in keys { _ = try redis.readData(forKey: key) } }
    }
    let diskReads = try BenchClock.seconds {
        for _ in 0..<batches { for key in keys { _ = try disk.readData(forKey: key) } }
    }
    print("redis_mget100", multiGet / Double(batches))
    print("redis_get100", singleGets / Double(batches))
    print("disk_get100", diskReads / Double(batches))
    try redis.removeAll()
}

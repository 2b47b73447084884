import Foundation
import WebImage
import WITestSupport

/// Hit ratios of the eviction policies on two deterministic traces: Zipf(0.9) over 100,000 keys, and the same with
/// a one-pass scan of 50,000 cold keys mixed in (one for one, through its middle). Every access is a lookup, and a
/// store on a miss. Each cache holds 1,000 entries (1% of the keys) and is warmed by 100,000 Zipf accesses that
/// are not counted. Exact LRU is a simulation here (MemoryCache has no LRU policy); CLOCK and W-TinyLFU are
/// MemoryCache through its public API.
public enum HitRatioTraces {
    public static let keyCount = 100_000, warmUpCount = 100_000, accessCount = 1_000_000, scanCount = 50_000
    public static let capacity = 1_000

    /// The policies compared, in table order.
    public enum Policy: String, CaseIterable, Sendable {
        case lru, clock, tinyLFU
    }

    public typealias Ratios = CacheTraces.Ratios

    /// The two traces (name, warm-up, measured accesses).
    public static func traces() -> [(name: String, warmUp: [Int], trace: [Int])] {
        let zipf = CacheTraces.zipf(keyCount: keyCount, count: warmUpCount + accessCount, seed: 42)
        let warmUp = Array(zipf[..<warmUpCount])
        let measured = Array(zipf[warmUpCount...])
        return [
            ("zipf", warmUp, measured),
            ("scan", warmUp, CacheTraces.withScan(measured, keyCount: keyCount, scanCount: scanCount)),
        ]
    }

    /// Runs `policy` over a trace.
    public static func run(_ policy: Policy, warmUp: [Int], trace: [Int]) throws(ImageError) -> Ratios {
        let access: (Int) -> Bool
        switch policy {
        case .lru:
            var lru = ExactLRU(capacity: capacity)
            access = { lru.access($0) }
        case .clock, .tinyLFU:
            let cache = try MemoryCache(
                configuration: .init(
                    costLimit: .max, countLimit: capacity,
                    evictionPolicy: policy == .clock ? .clock : .tinyLFU,
                    usesWeakTier: false))
            let image = CacheWorkloads.values[0]
            access = { key in
                let name = String(key)
                if cache.image(forKey: name) != nil { return true }
                cache.setImage(image, forKey: name)
                return false
            }
        }
        return Ratios.measure(keyCount: keyCount, warmUp: warmUp, trace: trace, access: access)
    }
}

/// Exact LRU over integer keys: a hit moves the entry to the most recent end, a miss inserts it there and evicts
/// the least recent entry beyond `capacity`. Nodes live in arrays linked by index.
struct ExactLRU {
    let capacity: Int
    private var index: [Int: Int] = [:]
    private var keys: [Int] = [], previous: [Int] = [], next: [Int] = []
    private var head = -1, tail = -1  // head: least recent

    init(capacity: Int) {
        self.capacity = capacity
        index.reserveCapacity(capacity + 1)
    }

    /// Looks `key` up; on a miss stores it. Returns whether it hit.
    mutating func access(_ key: Int) -> Bool {
        if let node = index[key] {
            unlink(node)
            append(node)
            return true
        }
        let node: Int
        if keys.count < capacity {
            node = keys.count
            keys.append(key)
            previous.append(-1)
            next.append(-1)
        } else {
            node = head
            unlink(node)
            index.removeValue(forKey: keys[node])
            keys[node] = key
        }
        index[key] = node
        append(node)
        return false
    }

    private mutating func unlink(_ node: Int) {
        let p = previous[node]
        let n = next[node]
        if p >= 0 { next[p] = n } else { head = n }
        if n >= 0 { previous[n] = p } else { tail = p }
    }

    private mutating func append(_ node: Int) {
        previous[node] = tail
        next[node] = -1
        if tail >= 0 { next[tail] = node } else { head = node }
        tail = node
    }
}

import WICore

/// An evicted image still held somewhere else, remembered weakly so a later lookup can find it again.
final class WeakImage: Sendable {
    weak let image: Image?
    let deadline: Int64

    init(_ image: Image, deadline: Int64) {
        self.image = image
        self.deadline = deadline
    }
}

/// Per-shard hit, miss and eviction counts (summed by `MemoryCache.statistics`).
struct ShardCounters {
    var hits = 0
    var weakHits = 0
    var misses = 0
    var evictions = 0
    var expirations = 0
}

/// One shard of a `MemoryCache`: its entries, limits, policy state, weak tier and counters. Lives inside a
/// `Mutex`; every method runs with the shard locked.
struct ShardState {
    var pool = NodePool()
    var index = KeyIndex()
    var weak: [CacheKey: WeakImage] = [:]
    var weakSweepThreshold = 256
    var cost = 0
    var count = 0
    var counters = ShardCounters()
    private(set) var costLimit: Int
    private(set) var countLimit: Int
    /// Entries costing more than this are refused.
    private(set) var maxEntryCost: Int
    let policy: MemoryCache.EvictionPolicy
    let usesWeakTier: Bool
    /// W-TinyLFU only: the popularity sketch and the region sizes.
    var sketch: FrequencySketch?
    var windowCaps = (count: 1, cost: 1)
    var protectedCaps = (count: 1, cost: 1)

    init(policy: MemoryCache.EvictionPolicy, usesWeakTier: Bool, costLimit: Int, countLimit: Int, maxEntryCost: Int) {
        self.policy = policy
        self.usesWeakTier = usesWeakTier
        self.costLimit = costLimit
        self.countLimit = countLimit
        self.maxEntryCost = maxEntryCost
        if policy == .tinyLFU { sketch = FrequencySketch(capacity: min(countLimit, 256)) }   // grows with the entries
        updateRegionCaps()
    }

    // MARK: Lookup and store

    /// The image stored under the key `string` (hash `hash`), counting a hit or a miss.
    mutating func image(for string: String, hash: UInt64, now: () -> Int64) -> Image? {
        if let index = index.find(string, hash: hash, in: pool) {
            let deadline = pool[index].deadline
            if deadline == .max || now() < deadline {
                counters.hits += 1
                touch(index)
                return pool[index].image
            }
            removeNode(index)
            counters.expirations += 1
        } else if !weak.isEmpty, case let key = CacheKey(string, hash: hash),
                  let remembered = weak.removeValue(forKey: key), let image = remembered.image,
                  remembered.deadline == .max || now() < remembered.deadline
        {
            counters.hits += 1
            counters.weakHits += 1
            store(image, cost: image.cost, deadline: remembered.deadline, for: key, now: now)
            return image
        }
        counters.misses += 1
        sketch?.increment(hash)
        return nil
    }

    /// Whether `key` is in the strong tier and not expired; touches nothing.
    func contains(_ key: CacheKey, now: () -> Int64) -> Bool {
        guard let index = index.find(key, in: pool) else { return false }
        let deadline = pool[index].deadline
        return deadline == .max || now() < deadline
    }

    mutating func store(_ image: Image, cost: Int, deadline: Int64, for key: CacheKey, now: () -> Int64) {
        if !weak.isEmpty { weak.removeValue(forKey: key) }
        guard cost <= maxEntryCost else {
            if let index = index.find(key, in: pool) { removeNode(index) }   // the key no longer means the old image
            return
        }
        if let index = index.find(key, in: pool) {
            pool[index].image = image
            pool[index].deadline = deadline
            self.cost += cost - pool[index].cost
            pool.setCost(cost, of: index)
            touch(index)
        } else {
            let node = Node(key: key, image: image, cost: cost, deadline: deadline)
            index.insert(pool.append(node, to: 0), hash: key.hash)
            self.cost += cost
            count += 1
            sketch?.increment(key.hash)
            sketch?.ensureCapacity(count)
        }
        evict(toCost: costLimit, count: countLimit, now: now)
    }

    mutating func remove(_ key: CacheKey) {
        if let index = index.find(key, in: pool) { removeNode(index) }
        if !weak.isEmpty { weak.removeValue(forKey: key) }
    }

    mutating func removeAll() {
        pool.removeAll()
        index.removeAll()
        weak = [:]
        cost = 0
        count = 0
    }

    mutating func removeExpired(now: Int64) {
        for list in 0..<UInt8(3) {
            var index = pool.lists[Int(list)].head
            while index >= 0 {
                let next = pool[index].next
                if pool[index].deadline <= now {
                    removeNode(index)
                    counters.expirations += 1
                }
                index = next
            }
        }
        weak = weak.filter { $0.value.image != nil && $0.value.deadline > now }
    }

    mutating func setLimits(cost: Int, count: Int, maxEntryCost: Int, now: () -> Int64) {
        costLimit = cost
        countLimit = count
        self.maxEntryCost = maxEntryCost
        updateRegionCaps()
        evict(toCost: costLimit, count: countLimit, now: now)
    }

    // MARK: Eviction

    /// Evicts, in policy order, until the shard holds at most `targetCost` and `targetCount`.
    mutating func evict(toCost targetCost: Int, count targetCount: Int, now: () -> Int64) {
        switch policy {
        case .clock: evictClock(toCost: targetCost, count: targetCount, now: now)
        case .tinyLFU: evictTinyLFU(toCost: targetCost, count: targetCount, now: now)
        }
    }

    /// Records a hit without moving any list node (a move would touch the neighbours' nodes, two or three more
    /// cache misses per hit): both policies set the entry's reference bit, which eviction reads as a second chance;
    /// W-TinyLFU also counts the access in its sketch.
    private mutating func touch(_ index: Int32) {
        if policy == .tinyLFU { sketch?.increment(pool[index].key.hash) }
        if !pool[index].referenced { pool[index].referenced = true }
    }

    /// Removes a node without counting an eviction or remembering it weakly (explicit removal, expiry).
    private mutating func removeNode(_ index: Int32) {
        self.index.remove(index, hash: pool[index].key.hash)
        cost -= pool[index].cost
        count -= 1
        _ = pool.remove(index)
    }

    /// Evicts a node: counted, and remembered in the weak tier when that is on.
    mutating func evictNode(_ index: Int32, now: () -> Int64) {
        self.index.remove(index, hash: pool[index].key.hash)
        cost -= pool[index].cost
        count -= 1
        counters.evictions += 1
        let deadline = pool[index].deadline
        guard usesWeakTier, deadline == .max || now() < deadline else {
            _ = pool.remove(index)
            return
        }
        let key = pool[index].key
        guard let image = pool.remove(index) else { return }
        weak[key] = WeakImage(image, deadline: deadline)
        if weak.count >= weakSweepThreshold {
            weak = weak.filter { $0.value.image != nil }
            weakSweepThreshold = max(256, 2 * weak.count)
        }
    }

    func isExpired(_ index: Int32, now: () -> Int64) -> Bool {
        let deadline = pool[index].deadline
        return deadline != .max && now() >= deadline
    }

    private mutating func updateRegionCaps() {
        windowCaps = (max(1, countLimit / 100), max(1, costLimit / 100))
        let mainCount = countLimit - windowCaps.count, mainCost = costLimit - windowCaps.cost
        protectedCaps = (max(1, mainCount - mainCount / 5), max(1, mainCost - mainCost / 5))
    }
}

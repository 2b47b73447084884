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
        if policy == .tinyLFU { sketch = FrequencySketch(capacity: min(countLimit, 256)) }  // grows with the entries
        updateRegionCaps()
    }

    // MARK: Lookup and store

    /// The image stored under the key `string` (hash `hash`), counting a hit or a miss.
    mutating func image(for string: String, hash: UInt64, now: () -> Int64) -> Image? {
        if let slot = index.find(string, hash: hash) {
            let node = index.node(at: slot)
            if !index.expires(at: slot) || now() < pool[node].deadline {
                counters.hits += 1
                touch(node, hash: hash)
                return index.image(at: slot)
            }
            removeNode(node, slot: slot)
            counters.expirations += 1
        } else if !weak.isEmpty, case let key = CacheKey(string, hash: hash),
            let remembered = weak.removeValue(forKey: key), let image = remembered.image,
            remembered.deadline == .max || now() < remembered.deadline
        {
            counters.hits += 1
            counters.weakHits += 1
            store(image, cost: image.cost, deadline: remembered.deadline, for: string, hash: hash, now: now)
            return image
        }
        counters.misses += 1
        sketch?.increment(hash)
        return nil
    }

    /// Whether `key` is in the strong tier and not expired; touches nothing.
    func contains(_ key: CacheKey, now: () -> Int64) -> Bool {
        guard let slot = index.find(key) else { return false }
        return !index.expires(at: slot) || now() < pool[index.node(at: slot)].deadline
    }

    /// Stores `image` under the key `string` (hash `hash`). A replaced entry keeps its node and slot (a
    /// `CacheKey`, which retains the string, is made only for a new entry or the weak tier).
    mutating func store(
        _ image: Image, cost: Int, deadline: Int64, for string: String, hash: UInt64,
        now: () -> Int64
    ) {
        if !weak.isEmpty { weak.removeValue(forKey: CacheKey(string, hash: hash)) }
        guard cost <= maxEntryCost else {
            // The key no longer means the old image.
            if let slot = index.find(string, hash: hash) { removeNode(index.node(at: slot), slot: slot) }
            return
        }
        if let slot = index.find(string, hash: hash) {
            let node = index.node(at: slot)
            index.update(slot, image: image, expires: deadline != .max)
            pool[node].deadline = deadline
            self.cost += cost - pool[node].cost
            pool.setCost(cost, of: node)
            touch(node, hash: hash)
        } else {
            let node = pool.append(Node(hash: hash, cost: cost, deadline: deadline), to: 0)
            index.insert(CacheKey(string, hash: hash), node: node, image: image, expires: deadline != .max)
            self.cost += cost
            count += 1
            sketch?.increment(hash)
            sketch?.ensureCapacity(count)
        }
        evict(toCost: costLimit, count: countLimit, now: now)
    }

    mutating func remove(_ key: CacheKey) {
        if let slot = index.find(key) { removeNode(index.node(at: slot), slot: slot) }
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
                    removeNode(index, slot: self.index.slot(of: index, hash: pool[index].hash))
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
    @inline(__always)
    private mutating func touch(_ node: Int32, hash: UInt64) {
        if policy == .tinyLFU { sketch?.increment(hash) }
        pool.markReferenced(node)
    }

    /// Removes a node (held in `slot` of the index) without counting an eviction or remembering it weakly
    /// (explicit removal, expiry).
    private mutating func removeNode(_ node: Int32, slot: Int) {
        _ = index.remove(at: slot)
        cost -= pool[node].cost
        count -= 1
        pool.remove(node)
    }

    /// Evicts a node: counted, and remembered in the weak tier when that is on.
    mutating func evictNode(_ node: Int32, now: () -> Int64) {
        let hash = pool[node].hash
        let (key, image) = index.remove(at: index.slot(of: node, hash: hash))
        cost -= pool[node].cost
        count -= 1
        counters.evictions += 1
        let deadline = pool[node].deadline
        pool.remove(node)
        guard usesWeakTier, deadline == .max || now() < deadline, let image else { return }
        weak[CacheKey(key, hash: hash)] = WeakImage(image, deadline: deadline)
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
        let mainCount = countLimit - windowCaps.count
        let mainCost = costLimit - windowCaps.cost
        protectedCaps = (max(1, mainCount - mainCount / 5), max(1, mainCost - mainCost / 5))
    }
}

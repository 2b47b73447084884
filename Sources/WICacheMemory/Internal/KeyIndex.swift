/// A shard's key -> node table: open addressing with linear probing over node indices, keyed by the hash that
/// `CacheKey` computed once. Unlike a `Dictionary<CacheKey, Int32>` it never hashes again and stores no keys of
/// its own (they live in the nodes). Deletion shifts later entries back, so no tombstones build up.
struct KeyIndex {
    private var slots: [Int32]
    private var mask: Int
    private(set) var count = 0

    init() {
        slots = [Int32](repeating: -1, count: 16)
        mask = 15
    }

    /// The home slot of a hash: bits above those that choose the shard.
    @inline(__always)
    private func home(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash >> 16) & mask
    }

    /// The node holding `key`, if any.
    func find(_ key: CacheKey, in pool: NodePool) -> Int32? {
        var slot = home(key.hash)
        while true {
            let node = slots[slot]
            if node < 0 { return nil }
            if pool[node].key == key { return node }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `node` (whose key is not in the table yet) under `hash`.
    mutating func insert(_ node: Int32, hash: UInt64, in pool: NodePool) {
        if (count + 1) * 4 > slots.count * 3 { grow(in: pool) }
        place(node, hash: hash)
        count += 1
    }

    /// Removes `node`, stored under `hash`.
    mutating func remove(_ node: Int32, hash: UInt64, in pool: NodePool) {
        var slot = home(hash)
        while slots[slot] != node { slot = (slot + 1) & mask }
        // Backward-shift deletion: move up every later entry of the probe run that may live in the hole.
        var hole = slot, next = (slot + 1) & mask
        while slots[next] >= 0 {
            let wanted = home(pool[slots[next]].key.hash)
            // The entry at `next` can move to `hole` unless its home lies cyclically in (hole, next].
            let distanceToNext = (next - wanted) & mask, distanceToHole = (hole - wanted) & mask
            if distanceToHole < distanceToNext {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = -1
        count -= 1
    }

    /// Empties the table and gives its memory back.
    mutating func removeAll() {
        self = KeyIndex()
    }

    private mutating func place(_ node: Int32, hash: UInt64) {
        var slot = home(hash)
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = node
    }

    private mutating func grow(in pool: NodePool) {
        let old = slots
        slots = [Int32](repeating: -1, count: old.count * 2)
        mask = slots.count - 1
        for node in old where node >= 0 { place(node, hash: pool[node].key.hash) }
    }
}

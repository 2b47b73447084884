/// A shard's key -> node table: open addressing with linear probing, keyed by the hash that `CacheKey` computed
/// once. Each slot holds a node index and 32 bits of the key's hash, so a probe that meets another key's slot
/// moves on without loading that key's node, and growing or shifting never touches nodes at all. Unlike a
/// `Dictionary<CacheKey, Int32>` it never hashes again and stores no keys of its own (they live in the nodes).
/// Deletion shifts later entries back, so no tombstones build up.
struct KeyIndex {
    /// `tag << 32 | node`; `Self.empty` in the node half marks a free slot.
    private var slots: [UInt64]
    private var mask: Int
    private(set) var count = 0

    private static let empty: UInt64 = 0xFFFF_FFFF

    init() {
        slots = [UInt64](repeating: Self.empty, count: 16)
        mask = 15
    }

    /// The 32 hash bits a slot keeps: above those that choose the shard. The home slot is their low bits, so it
    /// can be recomputed from the slot alone.
    @inline(__always)
    private static func tag(_ hash: UInt64) -> UInt64 {
        (hash >> 16) & 0xFFFF_FFFF
    }

    @inline(__always)
    private func home(tag: UInt64) -> Int {
        Int(truncatingIfNeeded: tag) & mask
    }

    /// The node holding `key`, if any.
    func find(_ key: CacheKey, in pool: NodePool) -> Int32? {
        find(key.string, hash: key.hash, in: pool)
    }

    /// The node holding the key `string` whose hash is `hash`, if any (a lookup needs no `CacheKey`, so it does
    /// not retain the caller's string).
    func find(_ string: String, hash: UInt64, in pool: NodePool) -> Int32? {
        let tag = Self.tag(hash)
        var slot = home(tag: tag)
        while true {
            let entry = slots[slot]
            let node = entry & Self.empty
            if node == Self.empty { return nil }
            if entry >> 32 == tag {
                let index = Int32(truncatingIfNeeded: node)
                if pool[index].key.hash == hash, pool[index].key.string == string { return index }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `node` (whose key is not in the table yet) under `hash`.
    mutating func insert(_ node: Int32, hash: UInt64) {
        if (count + 1) * 4 > slots.count * 3 { grow() }
        place(Self.tag(hash) << 32 | UInt64(UInt32(bitPattern: node)))
        count += 1
    }

    /// Removes `node`, stored under `hash`.
    mutating func remove(_ node: Int32, hash: UInt64) {
        let entry = Self.tag(hash) << 32 | UInt64(UInt32(bitPattern: node))
        var slot = home(tag: Self.tag(hash))
        while slots[slot] != entry { slot = (slot + 1) & mask }
        // Backward-shift deletion: move up every later entry of the probe run that may live in the hole.
        var hole = slot, next = (slot + 1) & mask
        while slots[next] & Self.empty != Self.empty {
            let wanted = home(tag: slots[next] >> 32)
            // The entry at `next` can move to `hole` unless its home lies cyclically in (hole, next].
            let distanceToNext = (next - wanted) & mask, distanceToHole = (hole - wanted) & mask
            if distanceToHole < distanceToNext {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = Self.empty
        count -= 1
    }

    /// Empties the table and gives its memory back.
    mutating func removeAll() {
        self = KeyIndex()
    }

    private mutating func place(_ entry: UInt64) {
        var slot = home(tag: entry >> 32)
        while slots[slot] & Self.empty != Self.empty { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: Self.empty, count: old.count * 2)
        mask = slots.count - 1
        for entry in old where entry & Self.empty != Self.empty { place(entry) }
    }
}

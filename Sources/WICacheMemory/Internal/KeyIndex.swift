import WICore

/// A shard's key -> entry table: open addressing with linear probing, keyed by the hash that `CacheKey` computed
/// once. Each 32-byte slot holds what a hit needs, so a hit reads one slot and no node: 32 bits of the key's hash
/// (a probe that meets another key's slot moves on after comparing them), the node number, whether the entry has a
/// deadline, the key itself and the image. The node (`NodePool`) keeps what eviction needs: cost, deadline, list
/// links. Deletion shifts later entries back, so no tombstones build up.
struct KeyIndex {
    /// One slot. `meta` is `tag << 32 | expires << 31 | node`; `KeyIndex.empty` in the low half marks a free slot.
    struct Slot {
        var meta: UInt64
        var key: String
        var image: Image?

        static var empty: Slot { Slot(meta: KeyIndex.empty, key: "", image: nil) }
    }

    private var slots: [Slot]
    private var mask: Int
    private(set) var count = 0

    static let empty: UInt64 = 0xFFFF_FFFF
    private static let expiresBit: UInt64 = 0x8000_0000
    private static let nodeBits: UInt64 = 0x7FFF_FFFF

    init() {
        slots = [Slot](repeating: .empty, count: 16)
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

    /// The slot holding the key `string` whose hash is `hash`, if any (a lookup needs no `CacheKey`, so it does
    /// not retain the caller's string). Keys are equal when their UTF-8 bytes are.
    @inline(__always)
    func find(_ string: String, hash: UInt64) -> Int? {
        let tag = Self.tag(hash)
        var slot = home(tag: tag)
        while true {
            let entry = slots[slot].meta
            if entry & Self.empty == Self.empty { return nil }
            if entry >> 32 == tag, Self.sameBytes(slots[slot].key, string) { return slot }
            slot = (slot + 1) & mask
        }
    }

    /// The slot of `key`, if any.
    func find(_ key: CacheKey) -> Int? {
        find(key.string, hash: key.hash)
    }

    /// The node number kept in `slot`.
    @inline(__always)
    func node(at slot: Int) -> Int32 {
        Int32(truncatingIfNeeded: slots[slot].meta & Self.nodeBits)
    }

    /// Whether the entry in `slot` has a deadline (only then does a hit read its node).
    @inline(__always)
    func expires(at slot: Int) -> Bool {
        slots[slot].meta & Self.expiresBit != 0
    }

    /// The image kept in `slot`.
    @inline(__always)
    func image(at slot: Int) -> Image? {
        slots[slot].image
    }

    /// The key kept in `slot`.
    func key(at slot: Int) -> String {
        slots[slot].key
    }

    /// Replaces the image of `slot` (storing the same object again changes no reference count) and whether it has
    /// a deadline.
    mutating func update(_ slot: Int, image: Image, expires: Bool) {
        if slots[slot].image !== image { slots[slot].image = image }
        slots[slot].meta = slots[slot].meta & ~Self.expiresBit | (expires ? Self.expiresBit : 0)
    }

    /// Adds `key` (not in the table yet) for `node`, holding `image`.
    mutating func insert(_ key: CacheKey, node: Int32, image: Image?, expires: Bool) {
        precondition(node >= 0 && UInt64(node) < Self.nodeBits, "node number out of range")
        if (count + 1) * 4 > slots.count * 3 { grow() }
        let meta = Self.tag(key.hash) << 32 | (expires ? Self.expiresBit : 0) | UInt64(node)
        place(Slot(meta: meta, key: key.string, image: image))
        count += 1
    }

    /// The slot of `node`, whose key hashes to `hash` (it must be in the table).
    func slot(of node: Int32, hash: UInt64) -> Int {
        let tag = Self.tag(hash)
        var slot = home(tag: tag)
        while slots[slot].meta >> 32 != tag || slots[slot].meta & Self.nodeBits != UInt64(node) {
            slot = (slot + 1) & mask
        }
        return slot
    }

    /// Empties `slot` and returns its key and image (the caller decides when the image is released).
    mutating func remove(at slot: Int) -> (key: String, image: Image?) {
        var removed = Slot.empty
        swap(&removed, &slots[slot])
        // Backward-shift deletion: move up every later entry of the probe run that may live in the hole.
        var hole = slot
        var next = (slot + 1) & mask
        while slots[next].meta & Self.empty != Self.empty {
            let wanted = home(tag: slots[next].meta >> 32)
            // The entry at `next` can move to `hole` unless its home lies cyclically in (hole, next].
            let distanceToNext = (next - wanted) & mask
            let distanceToHole = (hole - wanted) & mask
            if distanceToHole < distanceToNext {
                slots.swapAt(hole, next)  // the hole moves on, empty
                hole = next
            }
            next = (next + 1) & mask
        }
        count -= 1
        return (removed.key, removed.image)
    }

    /// Empties the table and gives its memory back.
    mutating func removeAll() {
        self = KeyIndex()
    }

    private mutating func place(_ entry: consuming Slot) {
        var slot = home(tag: entry.meta >> 32)
        while slots[slot].meta & Self.empty != Self.empty { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    private mutating func grow() {
        var old = [Slot](repeating: .empty, count: slots.count * 2)
        swap(&old, &slots)
        mask = slots.count - 1
        for index in old.indices where old[index].meta & Self.empty != Self.empty {
            var entry = Slot.empty
            swap(&entry, &old[index])
            place(entry)
        }
    }

    /// Whether two strings have the same UTF-8 bytes (the same storage needs no comparison). Unlike `==`, which
    /// compares canonical equivalence, NFC and NFD spellings differ here, as their hashes do.
    @inline(__always)
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        let result = a.utf8.withContiguousStorageIfAvailable { left in
            b.utf8.withContiguousStorageIfAvailable { right in
                left.count == right.count
                    && (left.baseAddress == right.baseAddress
                        || UnsafeRawBufferPointer(left).elementsEqual(UnsafeRawBufferPointer(right)))
            }
        }
        if let known = result ?? nil { return known }
        return a.utf8.elementsEqual(b.utf8)
    }
}

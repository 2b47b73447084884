/// What eviction needs of one cached entry, stored by index in a `NodePool` (no per-entry allocation, no reference
/// counting of nodes). Its key and image live in the entry's `KeyIndex` slot, which a hit reads instead.
struct Node {
    /// The key's hash (`CacheKey.hash`): finds the entry's slot and its frequency.
    var hash: UInt64
    var cost: Int
    /// Nanoseconds on the cache's clock after which the entry is expired; `Int64.max` for never.
    var deadline: Int64
    var prev: Int32 = -1
    var next: Int32 = -1
    /// Which list of the pool holds the node.
    var list: UInt8 = 0
}

/// A doubly linked list threaded through a `NodePool` by index; tracks its length and total cost.
struct NodeList {
    var head: Int32 = -1
    var tail: Int32 = -1
    var count = 0
    var cost = 0
}

/// The entries of one shard: a slab of nodes with a free list, up to three linked lists over them (CLOCK uses
/// one; W-TinyLFU uses window, probation and protected), and the nodes' CLOCK reference bits in a bitmap of their
/// own (set by a hit, cleared when the hand passes): a hit writes one bit in a few hot lines instead of the node.
struct NodePool {
    private(set) var nodes: [Node] = []
    private var free: [Int32] = []
    private var referenceBits: [UInt64] = []
    var lists = [NodeList](repeating: NodeList(), count: 3)

    subscript(index: Int32) -> Node {
        _read { yield nodes[Int(index)] }
        _modify { yield &nodes[Int(index)] }
    }

    /// Whether the node was hit since the hand last passed it.
    @inline(__always)
    func isReferenced(_ index: Int32) -> Bool {
        referenceBits[Int(index) >> 6] & (1 << UInt64(index & 63)) != 0
    }

    /// Sets the node's reference bit (a hit).
    @inline(__always)
    mutating func markReferenced(_ index: Int32) {
        referenceBits[Int(index) >> 6] |= 1 << UInt64(index & 63)
    }

    /// Clears the node's reference bit (the hand passed it).
    @inline(__always)
    mutating func clearReferenced(_ index: Int32) {
        referenceBits[Int(index) >> 6] &= ~(1 << UInt64(index & 63))
    }

    /// Stores a new node, unreferenced, at the tail of `list` and returns its index.
    mutating func append(_ node: consuming Node, to list: UInt8) -> Int32 {
        let index: Int32
        if let reused = free.popLast() {
            index = reused
            nodes[Int(index)] = node
        } else {
            index = Int32(nodes.count)
            nodes.append(node)
            if nodes.count > referenceBits.count * 64 { referenceBits.append(0) }
        }
        clearReferenced(index)
        link(index, to: list)
        return index
    }

    /// Unlinks and frees a node.
    mutating func remove(_ index: Int32) {
        unlink(index)
        free.append(index)
    }

    /// Moves a node to the tail of `list` (which may be the list it is in).
    mutating func moveToTail(_ index: Int32, of list: UInt8) {
        if lists[Int(list)].tail == index { return }  // already there (a repeated hit)
        unlink(index)
        link(index, to: list)
    }

    /// Changes a node's cost, keeping its list's total right.
    mutating func setCost(_ cost: Int, of index: Int32) {
        let list = Int(nodes[Int(index)].list)
        lists[list].cost += cost - nodes[Int(index)].cost
        nodes[Int(index)].cost = cost
    }

    /// Drops every node and gives the memory back.
    mutating func removeAll() {
        nodes = []
        free = []
        referenceBits = []
        lists = [NodeList](repeating: NodeList(), count: 3)
    }

    private mutating func link(_ index: Int32, to list: UInt8) {
        let slot = Int(list)
        let tail = lists[slot].tail
        nodes[Int(index)].list = list
        nodes[Int(index)].prev = tail
        nodes[Int(index)].next = -1
        if tail >= 0 { nodes[Int(tail)].next = index } else { lists[slot].head = index }
        lists[slot].tail = index
        lists[slot].count += 1
        lists[slot].cost += nodes[Int(index)].cost
    }

    private mutating func unlink(_ index: Int32) {
        let prev = nodes[Int(index)].prev
        let next = nodes[Int(index)].next
        let slot = Int(nodes[Int(index)].list)
        if prev >= 0 { nodes[Int(prev)].next = next } else { lists[slot].head = next }
        if next >= 0 { nodes[Int(next)].prev = prev } else { lists[slot].tail = prev }
        lists[slot].count -= 1
        lists[slot].cost -= nodes[Int(index)].cost
    }
}

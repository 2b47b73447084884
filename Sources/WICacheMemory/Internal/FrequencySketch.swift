/// TinyLFU's popularity estimate: a count-min sketch of 4-bit counters behind a doorkeeper Bloom filter, both laid
/// out so that one key touches one cache line of each.
///
/// A key's first sighting only sets its doorkeeper bits, so the many keys seen once (a scan) never reach the
/// counters. Later sightings increment the key's four counters (one per row, saturating at 15); the estimate is
/// the smallest of the four plus the doorkeeper bit. After `10 x width` increments every counter is halved and the
/// doorkeeper cleared (aging), so past popularity fades.
///
/// Layout (the blocked sketch Caffeine uses): the table is cut into 64-byte blocks of eight words, each word
/// sixteen counters. A key picks one block; row `r` uses one of the block's words `2r` and `2r + 1` and one counter
/// in it. Its three doorkeeper bits lie in one 64-bit word. So a hit on a hot key reads and writes two cache lines,
/// where four rows and three Bloom probes spread over the whole table touched up to seven.
///
/// Increments are recorded in a small buffer and applied sixteen at a time (`flush`), before any read of the
/// counters: an access then costs one store into a line the shard already holds, and the batch's independent
/// loads of counter blocks overlap in the processor instead of each lookup waiting for its own. The counters seen by
/// `frequency` are exactly those of applying every increment at once, in the same order.
struct FrequencySketch {
    /// `width` words of sixteen 4-bit counters, plus up to seven words of slack so that blocks can start on a
    /// 64-byte boundary (`blockOffset`).
    private var table: [UInt64]
    private var doorkeeper: [UInt64]
    /// The first word of block 0: chosen so that blocks start on a 64-byte boundary (a block straddling two
    /// cache lines would cost a second miss). Only speed depends on it.
    private var blockOffset = 0
    private var blockMask: UInt64
    private var doorkeeperMask: UInt64
    private var additions = 0
    private var sampleSize: Int
    /// Hashes recorded by `increment` and not applied yet (the first `pendingCount`).
    private var pending = InlineArray<16, UInt64>(repeating: 0)
    private var pendingCount = 0

    /// The number of counter words (a power of two, at least 16); the sketch is sized for that many entries.
    let width: Int

    init(capacity: Int) {
        width = max(16, Self.powerOfTwo(atLeast: capacity))
        table = [UInt64](repeating: 0, count: width + 7)
        doorkeeper = [UInt64](repeating: 0, count: max(1, width / 4))
        blockMask = UInt64(width / 8 - 1)
        doorkeeperMask = UInt64(doorkeeper.count - 1)
        sampleSize = 10 * width
        blockOffset = table.withUnsafeBufferPointer { buffer in
            let address = UInt(bitPattern: buffer.baseAddress)
            return Int((64 - address % 64) % 64) / 8
        }
    }

    /// Grows (and resets) the sketch when the shard holds more entries than it was sized for.
    mutating func ensureCapacity(_ capacity: Int) {
        guard capacity > width, width < 1 << 24 else { return }
        self = FrequencySketch(capacity: min(capacity, 1 << 24))
    }

    /// Records one access of the key whose hash is `hash` (applied to the counters by the next `flush`, at the latest
    /// when sixteen are pending or the counters are read).
    @inline(__always)
    mutating func increment(_ hash: UInt64) {
        pending[pendingCount] = hash
        pendingCount += 1
        if pendingCount == pending.count { flush() }
    }

    /// Applies the pending increments, oldest first.
    mutating func flush() {
        for index in 0..<pendingCount { apply(pending[index]) }
        pendingCount = 0
    }

    /// Counts one access in the doorkeeper, or in the counters when the doorkeeper had seen the key.
    private mutating func apply(_ hash: UInt64) {
        let spread = mixHash(hash)
        if !admitToDoorkeeper(spread) { return }
        let block = blockStart(spread)
        let selectors = spread >> 32
        var added = false
        for row in 0..<4 {
            let (word, shift) = Self.counter(row: row, selectors: selectors)
            let index = block + word
            if (table[index] >> shift) & 0xF < 15 {
                table[index] &+= 1 << shift
                added = true
            }
        }
        if added {
            additions += 1
            if additions >= sampleSize { halve() }
        }
    }

    /// The estimated number of recent accesses of the key whose hash is `hash` (0...16), pending increments included.
    mutating func frequency(_ hash: UInt64) -> Int {
        flush()
        let spread = mixHash(hash)
        let block = blockStart(spread)
        let selectors = spread >> 32
        var smallest: UInt64 = 15
        for row in 0..<4 {
            let (word, shift) = Self.counter(row: row, selectors: selectors)
            smallest = min(smallest, (table[block + word] >> shift) & 0xF)
        }
        return Int(smallest) + (doorkeeperContains(spread) ? 1 : 0)
    }

    /// Applies the pending increments, then halves every counter and clears the doorkeeper.
    mutating func age() {
        flush()
        halve()
    }

    private mutating func halve() {
        for index in table.indices { table[index] = (table[index] >> 1) & 0x7777_7777_7777_7777 }
        for index in doorkeeper.indices { doorkeeper[index] = 0 }
        additions /= 2
    }

    /// The first word of the key's block.
    @inline(__always)
    private func blockStart(_ spread: UInt64) -> Int {
        blockOffset + Int(truncatingIfNeeded: spread & blockMask) << 3
    }

    /// Row `row`'s counter: the word in the block (`2 row` or `2 row + 1`) and the bit shift of the counter in it,
    /// from five bits of `selectors` per row.
    @inline(__always)
    private static func counter(row: Int, selectors: UInt64) -> (word: Int, shift: UInt64) {
        let bits = selectors >> UInt64(5 * row)
        return (2 * row + Int(bits & 1), ((bits >> 1) & 0xF) << 2)
    }

    /// The doorkeeper word of a key and its three bits in it (from bits of `spread` the block choice does not use).
    @inline(__always)
    private func doorkeeperProbe(_ spread: UInt64) -> (word: Int, bits: UInt64) {
        let mixed = spread.byteSwapped
        let bits = UInt64(1) << (mixed & 63) | UInt64(1) << ((mixed >> 6) & 63) | UInt64(1) << ((mixed >> 12) & 63)
        return (Int(truncatingIfNeeded: (mixed >> 18) & doorkeeperMask), bits)
    }

    /// Sets the key's doorkeeper bits; returns whether all were already set (the key was seen before).
    private mutating func admitToDoorkeeper(_ spread: UInt64) -> Bool {
        let (word, bits) = doorkeeperProbe(spread)
        let seen = doorkeeper[word] & bits == bits
        doorkeeper[word] |= bits
        return seen
    }

    private func doorkeeperContains(_ spread: UInt64) -> Bool {
        let (word, bits) = doorkeeperProbe(spread)
        return doorkeeper[word] & bits == bits
    }

    static func powerOfTwo(atLeast value: Int) -> Int {
        value <= 1 ? 1 : 1 << (Int.bitWidth - (value - 1).leadingZeroBitCount)
    }
}

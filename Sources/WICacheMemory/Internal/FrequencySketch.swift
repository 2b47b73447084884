/// TinyLFU's popularity estimate: a count-min sketch of 4-bit counters behind a doorkeeper Bloom filter.
///
/// A key's first sighting only sets its doorkeeper bits, so the many keys seen once (a scan) never reach the
/// counters. Later sightings increment the key's four counters (one per row, saturating at 15); the estimate is
/// the smallest of the four plus the doorkeeper bit. After `10 x width` increments every counter is halved and the
/// doorkeeper cleared (aging), so past popularity fades.
struct FrequencySketch {
    /// `width` words of sixteen 4-bit counters; a key's four counters lie in four words, one per row.
    private var table: [UInt64]
    private var doorkeeper: [UInt64]
    private var mask: UInt64
    private var additions = 0
    private var sampleSize: Int

    /// The number of entries the sketch is sized for (a power of two, at least 16).
    var width: Int { table.count }

    init(capacity: Int) {
        let width = max(16, Self.powerOfTwo(atLeast: capacity))
        table = [UInt64](repeating: 0, count: width)
        doorkeeper = [UInt64](repeating: 0, count: max(1, width / 4))
        mask = UInt64(width - 1)
        sampleSize = 10 * width
    }

    /// Grows (and resets) the sketch when the shard holds more entries than it was sized for.
    mutating func ensureCapacity(_ capacity: Int) {
        guard capacity > width, width < 1 << 24 else { return }
        self = FrequencySketch(capacity: min(capacity, 1 << 24))
    }

    /// Records one access of the key whose hash is `hash`.
    mutating func increment(_ hash: UInt64) {
        let spread = mixHash(hash)
        if !admitToDoorkeeper(spread) { return }
        let start = (spread & 3) << 2
        var added = false
        for row in 0..<UInt64(4) {
            let index = Int(rowHash(spread, row) & mask)
            let offset = (start + row) << 2
            if (table[index] >> offset) & 0xF < 15 {
                table[index] &+= 1 << offset
                added = true
            }
        }
        if added {
            additions += 1
            if additions >= sampleSize { age() }
        }
    }

    /// The estimated number of recent accesses of the key whose hash is `hash` (0...16).
    func frequency(_ hash: UInt64) -> Int {
        let spread = mixHash(hash)
        let start = (spread & 3) << 2
        var smallest: UInt64 = 15
        for row in 0..<UInt64(4) {
            let index = Int(rowHash(spread, row) & mask)
            smallest = min(smallest, (table[index] >> ((start + row) << 2)) & 0xF)
        }
        return Int(smallest) + (doorkeeperContains(spread) ? 1 : 0)
    }

    /// Halves every counter and clears the doorkeeper.
    mutating func age() {
        for index in table.indices { table[index] = (table[index] >> 1) & 0x7777_7777_7777_7777 }
        for index in doorkeeper.indices { doorkeeper[index] = 0 }
        additions /= 2
    }

    private func rowHash(_ spread: UInt64, _ row: UInt64) -> UInt64 {
        let seeds: (UInt64, UInt64, UInt64, UInt64) =
            (0xC3A5_C85C_97CB_3127, 0xB492_B66F_BE98_F273, 0x9AE1_6A3B_2F90_404F, 0xCBF2_9CE4_8422_2325)
        let seed = row == 0 ? seeds.0 : row == 1 ? seeds.1 : row == 2 ? seeds.2 : seeds.3
        let hash = (spread &+ seed) &* seed
        return hash ^ (hash >> 32)
    }

    /// Sets the key's three doorkeeper bits; returns whether all were already set (the key was seen before).
    private mutating func admitToDoorkeeper(_ spread: UInt64) -> Bool {
        var seen = true
        for probe in 0..<UInt64(3) {
            let bit = doorkeeperBit(spread, probe)
            let word = Int(bit >> 6), flag = UInt64(1) << (bit & 63)
            if doorkeeper[word] & flag == 0 {
                seen = false
                doorkeeper[word] |= flag
            }
        }
        return seen
    }

    private func doorkeeperContains(_ spread: UInt64) -> Bool {
        for probe in 0..<UInt64(3) {
            let bit = doorkeeperBit(spread, probe)
            if doorkeeper[Int(bit >> 6)] & (UInt64(1) << (bit & 63)) == 0 { return false }
        }
        return true
    }

    private func doorkeeperBit(_ spread: UInt64, _ probe: UInt64) -> UInt64 {
        let bits = UInt64(doorkeeper.count * 64)
        return ((spread & 0xFFFF_FFFF) &+ probe &* ((spread >> 32) | 1)) & (bits - 1)
    }

    static func powerOfTwo(atLeast value: Int) -> Int {
        value <= 1 ? 1 : 1 << (Int.bitWidth - (value - 1).leadingZeroBitCount)
    }
}

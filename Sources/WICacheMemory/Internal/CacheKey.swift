/// A cache key with its hash computed once: the shard, the dictionary and the frequency sketch all reuse it, so a
/// lookup hashes the string a single time.
///
/// The hash is Swift's seeded `String` hash, so crafted keys cannot pile into one shard or sketch slot.
struct CacheKey: Hashable {
    let string: String
    let hash: UInt64

    init(_ string: String) {
        self.string = string
        hash = UInt64(bitPattern: Int64(string.hashValue))
    }

    static func == (lhs: CacheKey, rhs: CacheKey) -> Bool {
        lhs.hash == rhs.hash && lhs.string == rhs.string
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}

/// A 64-bit finaliser (the SplitMix64 mix): spreads a hash so that different bit ranges are independent.
@inline(__always)
func mixHash(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}

/// A cache key with its hash computed once: the shard, the index and the frequency sketch all reuse it, so a
/// lookup reads the string's bytes a single time.
///
/// The hash is `KeyHash` over the key's UTF-8 bytes, keyed by the cache's own secret (drawn when the cache is
/// made), so crafted keys cannot pile into one shard, probe run or sketch slot. Two keys are equal when their strings are; strings that
/// are canonically equivalent but spelled with different bytes (NFC and NFD "é") hash apart and so are different
/// keys, as they are different URLs.
struct CacheKey: Hashable {
    let string: String
    let hash: UInt64

    init(_ string: String, secret: KeyHash.Secret) {
        self.string = string
        hash = KeyHash.hash(string, secret: secret)
    }

    /// A key with a given hash (tests force collisions with it).
    init(_ string: String, hash: UInt64) {
        self.string = string
        self.hash = hash
    }

    static func == (lhs: CacheKey, rhs: CacheKey) -> Bool {
        lhs.hash == rhs.hash && lhs.string == rhs.string
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}

/// A keyed 64-bit hash of bytes built on 64 x 64 -> 128-bit multiplications (the folded-multiply construction of
/// wyhash and rapidhash): 16 bytes per multiplication, about five times faster than `String.hashValue` (SipHash
/// over the normalized string) on URL-sized keys.
///
/// Thread safety: stateless; every call is given its secret.
enum KeyHash {
    /// Four odd words (no multiplication by them loses bits) that key the hash.
    typealias Secret = (UInt64, UInt64, UInt64, UInt64)

    /// A secret drawn from the system generator: each cache draws its own, so what one cache's behaviour reveals
    /// about its hashes says nothing of another's.
    static func randomSecret() -> Secret {
        var generator = SystemRandomNumberGenerator()
        return (generator.next() | 1, generator.next() | 1, generator.next() | 1, generator.next() | 1)
    }

    /// The hash of `string`'s UTF-8 bytes, read in place (no copy, no retain) unless the string is not stored
    /// contiguously (bridged storage).
    static func hash(_ string: String, secret: Secret) -> UInt64 {
        if let value = string.utf8.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0), secret: secret) }
        ) {
            return value
        }
        return Array(string.utf8).withUnsafeBytes { hash($0, secret: secret) }
    }

    /// The hash of `bytes` under `secret`.
    static func hash(_ bytes: UnsafeRawBufferPointer, secret: Secret) -> UInt64 {
        let count = bytes.count
        var state = secret.0 ^ fold(UInt64(truncatingIfNeeded: count) ^ secret.1, secret.2)
        var offset = 0
        while count - offset > 16 {
            let low = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let high = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
            state = fold(low ^ secret.1, high ^ state)
            offset += 16
        }
        // The last 1 to 16 bytes (none for an empty key), read as two words that may overlap.
        var low: UInt64 = 0
        var high: UInt64 = 0
        let left = count - offset
        if left >= 8 {
            low = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            high = bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else if left >= 4 {
            low = UInt64(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            high = UInt64(bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
        } else if left > 0 {
            low = UInt64(bytes[offset]) << 16 | UInt64(bytes[offset + left / 2]) << 8 | UInt64(bytes[count - 1])
        }
        state = fold(low ^ secret.2, high ^ state)
        return fold(state ^ secret.3, UInt64(truncatingIfNeeded: count) ^ secret.0)
    }

    /// The 128-bit product of `a` and `b`, its halves xored together.
    @inline(__always)
    private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
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

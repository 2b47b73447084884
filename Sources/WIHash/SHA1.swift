/// SHA-1 (FIPS 180-4), for thumbor's URL signatures (through `HMAC.sha1`) and the service's ETags.
///
/// SHA-1 is not collision resistant: use it where a format asks for it (thumbor signs with HMAC-SHA1, which is
/// still a sound MAC) or to tell contents apart (ETags), never to fingerprint what an adversary supplies.
/// Written in Swift rather than taken from swift-crypto, which would compile a copy of BoringSSL into every `wi`.
///
/// ```swift
/// Hex.string(SHA1.digest(Array("abc".utf8)))   // "a9993e364706816aba3e25717850c26c9cd0d89d"
/// ```
///
/// Thread safety: pure functions; safe from any thread.
package enum SHA1: BlockHash {
    /// The 20-byte digest of `message` (read in place when its bytes are contiguous).
    package static func digest(_ message: some Collection<UInt8>) -> [UInt8] {
        bytes(of: finalState(of: message))
    }

    /// The digest a final state stands for.
    static func bytes(of state: State) -> [UInt8] {
        bigEndianBytes(state.0, state.1, state.2, state.3, state.4)
    }

    typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32)
    static var initialState: State { (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0) }
    static var lengthIsBigEndian: Bool { true }

    static func compress(_ state: inout State, _ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { words in
            for index in 0..<16 {
                words[index] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self))
            }
            for index in 16..<80 {
                let mixed = words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16]
                words[index] = mixed.rotatedLeft(1)
            }
            var (a, b, c, d, e) = state
            for index in 0..<80 {
                let (f, k): (UInt32, UInt32) =
                    switch index {
                    case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                    case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                    case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                    default: (b ^ c ^ d, 0xCA62_C1D6)
                    }
                let temp = a.rotatedLeft(5) &+ f &+ e &+ k &+ words[index]
                (e, d, c, b, a) = (d, c, b.rotatedLeft(30), a, temp)
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
        }
    }
}

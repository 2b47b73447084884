/// MD5 (RFC 1321), for names, never for security: the disk cache names its files with the MD5 hex of the key, as
/// SDWebImage does. MD5 has practical collisions; use it only where an adversary gains nothing from one.
///
/// Allocation-free: `digest(_:)` reads the bytes in place and returns the 16 bytes as two words, which
/// `Digest.writeHex(to:)` writes into the caller's buffer.
///
/// ```swift
/// MD5.digest(Array("abc".utf8)).hex   // "900150983cd24fb0d6963f7d28e17f72"
/// ```
///
/// Thread safety: pure functions and values; safe from any thread.
package enum MD5: BlockHash {
    /// A 16-byte digest, as two words in the digest's byte order (little-endian within each word).
    ///
    /// Thread safety: an immutable value; safe from any thread.
    package struct Digest: Hashable, Sendable {
        /// Bytes 0..<8 of the digest, byte 0 in the lowest bits.
        package var low: UInt64
        /// Bytes 8..<16 of the digest, byte 8 in the lowest bits.
        package var high: UInt64

        /// The digest whose bytes 0..<8 are `low` and 8..<16 are `high` (little-endian within each word).
        package init(low: UInt64, high: UInt64) {
            self.low = low
            self.high = high
        }

        /// Parses 32 lowercase hex digits; nil when `hex` is anything else.
        package init?(hex: UnsafeRawBufferPointer) {
            guard hex.count == 32 else { return nil }
            var words: (UInt64, UInt64) = (0, 0)
            for index in 0..<16 {
                guard let high = Hex.value(ofLowercaseDigit: hex[2 * index]),
                    let low = Hex.value(ofLowercaseDigit: hex[2 * index + 1])
                else { return nil }
                let byte = UInt64(high << 4 | low) << UInt64((index & 7) * 8)
                if index < 8 { words.0 |= byte } else { words.1 |= byte }
            }
            self.init(low: words.0, high: words.1)
        }

        /// Byte `index` (0..<16) of the digest.
        package subscript(index: Int) -> UInt8 {
            UInt8(truncatingIfNeeded: (index < 8 ? low : high) >> UInt64((index & 7) * 8))
        }

        /// Writes the 32 lowercase hex digits to the start of `out` (at least 32 bytes).
        package func writeHex(to out: UnsafeMutableRawBufferPointer) {
            precondition(out.count >= 32, "MD5 hex needs 32 bytes")
            for index in 0..<16 { Hex.write(self[index], to: out, at: 2 * index) }
        }

        /// The 32 lowercase hex digits.
        package var hex: String {
            String(unsafeUninitializedCapacity: 32) { buffer in
                writeHex(to: UnsafeMutableRawBufferPointer(buffer))
                return 32
            }
        }
    }

    /// The digest of `bytes`, read in place.
    package static func digest(_ bytes: UnsafeRawBufferPointer) -> Digest {
        let state = finalState(of: bytes)
        return Digest(low: UInt64(state.0) | UInt64(state.1) << 32, high: UInt64(state.2) | UInt64(state.3) << 32)
    }

    /// The digest of `message` (in place when its bytes are contiguous).
    package static func digest(_ message: some Collection<UInt8>) -> Digest {
        let state = finalState(of: message)
        return Digest(low: UInt64(state.0) | UInt64(state.1) << 32, high: UInt64(state.2) | UInt64(state.3) << 32)
    }

    static var initialState: (UInt32, UInt32, UInt32, UInt32) { (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476) }
    static var lengthIsBigEndian: Bool { false }

    /// The left rotation of each of the 64 steps (RFC 1321, 3.4).
    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// The additive constant of each step: the integer part of 2^32 x |sin(step + 1)|, step + 1 in radians.
    private static let constants: [UInt32] = [
        0xd76a_a478, 0xe8c7_b756, 0x2420_70db, 0xc1bd_ceee, 0xf57c_0faf, 0x4787_c62a, 0xa830_4613, 0xfd46_9501,
        0x6980_98d8, 0x8b44_f7af, 0xffff_5bb1, 0x895c_d7be, 0x6b90_1122, 0xfd98_7193, 0xa679_438e, 0x49b4_0821,
        0xf61e_2562, 0xc040_b340, 0x265e_5a51, 0xe9b6_c7aa, 0xd62f_105d, 0x0244_1453, 0xd8a1_e681, 0xe7d3_fbc8,
        0x21e1_cde6, 0xc337_07d6, 0xf4d5_0d87, 0x455a_14ed, 0xa9e3_e905, 0xfcef_a3f8, 0x676f_02d9, 0x8d2a_4c8a,
        0xfffa_3942, 0x8771_f681, 0x6d9d_6122, 0xfde5_380c, 0xa4be_ea44, 0x4bde_cfa9, 0xf6bb_4b60, 0xbebf_bc70,
        0x289b_7ec6, 0xeaa1_27fa, 0xd4ef_3085, 0x0488_1d05, 0xd9d4_d039, 0xe6db_99e5, 0x1fa2_7cf8, 0xc4ac_5665,
        0xf429_2244, 0x432a_ff97, 0xab94_23a7, 0xfc93_a039, 0x655b_59c3, 0x8f0c_cc92, 0xffef_f47d, 0x8584_5dd1,
        0x6fa8_7e4f, 0xfe2c_e6e0, 0xa301_4314, 0x4e08_11a1, 0xf753_7e82, 0xbd3a_f235, 0x2ad7_d2bb, 0xeb86_d391,
    ]

    static func compress(_ state: inout (UInt32, UInt32, UInt32, UInt32), _ block: UnsafeRawBufferPointer) {
        var a = state.0
        var b = state.1
        var c = state.2
        var d = state.3
        constants.withUnsafeBufferPointer { constants in
            shifts.withUnsafeBufferPointer { shifts in
                for step in 0..<64 {
                    var f: UInt32
                    let word: Int
                    switch step {
                    case 0..<16:
                        f = (b & c) | (~b & d)
                        word = step
                    case 16..<32:
                        f = (d & b) | (~d & c)
                        word = (5 * step + 1) & 15
                    case 32..<48:
                        f = b ^ c ^ d
                        word = (3 * step + 5) & 15
                    default:
                        f = c ^ (b | ~d)
                        word = (7 * step) & 15
                    }
                    f =
                        f &+ a &+ constants[step]
                        &+ UInt32(littleEndian: block.loadUnaligned(fromByteOffset: word * 4, as: UInt32.self))
                    a = d
                    d = c
                    c = b
                    b = b &+ f.rotatedLeft(shifts[step])
                }
            }
        }
        state.0 &+= a
        state.1 &+= b
        state.2 &+= c
        state.3 &+= d
    }
}

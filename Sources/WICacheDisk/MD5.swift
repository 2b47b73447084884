#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// MD5 (RFC 1321), used only to name cache files as SDWebImage does (not for security), without a crypto package.
/// Works on the bytes in place: no allocation.
enum MD5 {
    /// A 16-byte digest, as two words in the digest's byte order (little-endian within each word).
    struct Digest: Hashable, Sendable {
        var low: UInt64
        var high: UInt64

        /// Byte `i` (0..<16) of the digest.
        subscript(i: Int) -> UInt8 {
            UInt8(truncatingIfNeeded: (i < 8 ? low : high) >> UInt64((i & 7) * 8))
        }

        private static let digits = Array("0123456789abcdef".utf8)

        /// Writes the 32 lowercase hex digits to `out` (at least 32 bytes).
        func writeHex(to out: UnsafeMutableRawBufferPointer) {
            Self.digits.withUnsafeBufferPointer { digits in
                for i in 0..<16 {
                    let byte = self[i]
                    out[2 * i] = digits[Int(byte >> 4)]
                    out[2 * i + 1] = digits[Int(byte & 15)]
                }
            }
        }

        /// Parses 32 lowercase hex digits; nil when `hex` is anything else.
        init?(hex: UnsafeRawBufferPointer) {
            guard hex.count == 32 else { return nil }
            var words: (UInt64, UInt64) = (0, 0)
            for i in 0..<16 {
                guard let high = Self.nibble(hex[2 * i]), let low = Self.nibble(hex[2 * i + 1]) else { return nil }
                let byte = UInt64(high << 4 | low) << UInt64((i & 7) * 8)
                if i < 8 { words.0 |= byte } else { words.1 |= byte }
            }
            self.init(low: words.0, high: words.1)
        }

        init(low: UInt64, high: UInt64) {
            self.low = low
            self.high = high
        }

        private static func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            default: nil
            }
        }
    }

    private static let shifts: [UInt32] = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                           5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
                                           4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                           6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21]
    private static let constants: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4_294_967_296)) }

    /// The digest of `bytes`.
    static func digest(_ bytes: UnsafeRawBufferPointer) -> Digest {
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        let whole = bytes.count / 64 * 64
        for chunk in stride(from: 0, to: whole, by: 64) {
            compress(&state, UnsafeRawBufferPointer(rebasing: bytes[chunk..<chunk + 64]))
        }
        // The tail, 0x80, zeros and the bit length: one or two more blocks.
        withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { tail in
            let rest = bytes.count - whole
            tail.initializeMemory(as: UInt8.self, repeating: 0)
            if rest > 0 { tail.baseAddress!.copyMemory(from: bytes.baseAddress! + whole, byteCount: rest) }
            tail[rest] = 0x80
            let length = rest < 56 ? 64 : 128
            let bitLength = UInt64(bytes.count) &* 8
            for i in 0..<8 { tail[length - 8 + i] = UInt8(truncatingIfNeeded: bitLength >> UInt64(i * 8)) }
            compress(&state, UnsafeRawBufferPointer(rebasing: tail[0..<64]))
            if length == 128 { compress(&state, UnsafeRawBufferPointer(rebasing: tail[64..<128])) }
        }
        return Digest(low: UInt64(state.0) | UInt64(state.1) << 32, high: UInt64(state.2) | UInt64(state.3) << 32)
    }

    /// One 64-byte block.
    private static func compress(_ state: inout (UInt32, UInt32, UInt32, UInt32), _ block: UnsafeRawBufferPointer) {
        var a = state.0, b = state.1, c = state.2, d = state.3
        constants.withUnsafeBufferPointer { constants in
            shifts.withUnsafeBufferPointer { shifts in
                for i in 0..<64 {
                    var f: UInt32
                    let g: Int
                    switch i {
                    case 0..<16: f = (b & c) | (~b & d); g = i
                    case 16..<32: f = (d & b) | (~d & c); g = (5 * i + 1) & 15
                    case 32..<48: f = b ^ c ^ d; g = (3 * i + 5) & 15
                    default: f = c ^ (b | ~d); g = (7 * i) & 15
                    }
                    let word = UInt32(littleEndian: block.loadUnaligned(fromByteOffset: g * 4, as: UInt32.self))
                    f = f &+ a &+ constants[i] &+ word
                    a = d
                    d = c
                    c = b
                    b = b &+ (f << shifts[i] | f >> (32 - shifts[i]))
                }
            }
        }
        state.0 &+= a; state.1 &+= b; state.2 &+= c; state.3 &+= d
    }
}

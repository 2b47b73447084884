/// Lowercase hexadecimal, the form digests are written in (file names, reference hashes in tests).
///
/// Thread safety: pure functions; safe from any thread.
package enum Hex {
    /// The lowercase hex digits of `bytes`, two per byte.
    ///
    /// ```swift
    /// Hex.string([0x0f, 0xa0])   // "0fa0"
    /// ```
    package static func string(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: 2 * bytes.count) { buffer in
            let out = UnsafeMutableRawBufferPointer(buffer)
            for (index, byte) in bytes.enumerated() { write(byte, to: out, at: 2 * index) }
            return 2 * bytes.count
        }
    }

    /// Writes the two lowercase hex digits of `byte` to `out[offset]` and `out[offset + 1]`.
    @inline(__always)
    static func write(_ byte: UInt8, to out: UnsafeMutableRawBufferPointer, at offset: Int) {
        out[offset] = digit(byte >> 4)
        out[offset + 1] = digit(byte & 15)
    }

    /// The value of a lowercase hex digit ("0"-"9", "a"-"f"); nil for any other byte.
    static func value(ofLowercaseDigit c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    @inline(__always)
    private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }
}

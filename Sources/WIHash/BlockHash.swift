/// A hash built the Merkle–Damgård way over 64-byte blocks, as MD5, SHA-1 and SHA-256 are: the message in whole
/// blocks, then a 0x80 byte, zeros, and the message's length in bits in the last 8 bytes of one or two more blocks.
///
/// Each algorithm gives its start state, its block function and the byte order of the length; the walk over the
/// message and the padding live here once. The walk reads the caller's bytes in place and pads in a stack buffer,
/// so hashing allocates nothing.
protocol BlockHash {
    /// The chaining value carried from block to block.
    associatedtype State
    /// The chaining value before the first block.
    static var initialState: State { get }
    /// Whether the padding's bit length is big-endian (SHA) rather than little-endian (MD5).
    static var lengthIsBigEndian: Bool { get }
    /// Folds one 64-byte `block` into `state`.
    static func compress(_ state: inout State, _ block: UnsafeRawBufferPointer)
}

extension BlockHash {
    /// The state after `bytes` and the padding, starting from `state`, which has already absorbed `prefixLength`
    /// bytes (a whole number of blocks: HMAC's key block) that count in the padded length.
    static func finalState(
        of bytes: UnsafeRawBufferPointer, from state: State = initialState,
        prefixLength: Int = 0
    ) -> State {
        var state = state
        let whole = bytes.count & ~63
        var offset = 0
        while offset < whole {
            compress(&state, UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 64]))
            offset += 64
        }
        withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { tail in
            let rest = bytes.count - whole
            tail.initializeMemory(as: UInt8.self, repeating: 0)
            if rest > 0 { tail.baseAddress!.copyMemory(from: bytes.baseAddress! + whole, byteCount: rest) }
            tail[rest] = 0x80
            let end = rest < 56 ? 64 : 128
            let bitLength = UInt64(prefixLength + bytes.count) &* 8
            for index in 0..<8 {
                let shift = lengthIsBigEndian ? 56 - 8 * index : 8 * index
                tail[end - 8 + index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))
            }
            compress(&state, UnsafeRawBufferPointer(rebasing: tail[0..<64]))
            if end == 128 { compress(&state, UnsafeRawBufferPointer(rebasing: tail[64..<128])) }
        }
        return state
    }

    /// `finalState(of:from:prefixLength:)` over any collection of bytes: in place when they are contiguous
    /// (`Array`, `Data`, a `String`'s native UTF-8 view), else over one contiguous copy.
    static func finalState(
        of message: some Collection<UInt8>, from state: State = initialState,
        prefixLength: Int = 0
    ) -> State {
        let inPlace = message.withContiguousStorageIfAvailable {
            finalState(of: UnsafeRawBufferPointer($0), from: state, prefixLength: prefixLength)
        }
        return inPlace
            ?? Array(message).withUnsafeBytes {
                finalState(of: $0, from: state, prefixLength: prefixLength)
            }
    }

    /// The big-endian bytes of `words`, the SHA digests' byte order.
    static func bigEndianBytes(_ words: UInt32...) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(4 * words.count)
        for word in words {
            for shift in stride(from: 24, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
            }
        }
        return bytes
    }
}

extension UInt32 {
    /// The word rotated left by `count` bits (0 < count < 32).
    @inline(__always)
    func rotatedLeft(_ count: UInt32) -> UInt32 { self << count | self >> (32 - count) }

    /// The word rotated right by `count` bits (0 < count < 32).
    @inline(__always)
    func rotatedRight(_ count: UInt32) -> UInt32 { self >> count | self << (32 - count) }
}

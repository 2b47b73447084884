/// Reading gzip members (RFC 1952) with a cap on what they inflate to: the SVG coder's `.svgz` documents and the
/// format sniffer's look inside them. Written in Swift because WICore links no C library; compressed documents are
/// small (an SVG), and the cap is checked as bytes come out, so a bomb stops at the cap, never at memory's end.
///
/// Thread safety: stateless; call from any thread.
package enum Gzip {
    /// Why a member could not be read.
    package enum Failure: Error, Equatable {
        /// The bytes are not a gzip member, or its deflate stream or trailer is broken; the text says where.
        case malformed(String)
        /// The member inflates to more than the limit given (nothing past the limit was kept).
        case exceedsLimit(Int)
        /// The pool job inflating it was cancelled (`WorkerPool.isCancelled`, looked at every 64 KiB of output).
        case cancelled
    }

    /// Whether the bytes start with gzip's magic and the deflate method (`1F 8B 08`).
    package static func isGzip(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == 0x1F && bytes[1] == 0x8B && bytes[2] == 8
    }

    /// The first member of `bytes` inflated, at most `limit` bytes, its CRC-32 and length checked; bytes after
    /// the member are ignored.
    package static func inflate(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) throws(Failure) -> [UInt8] {
        var inflater = try Inflater(member: bytes, capacity: limit)
        guard try inflater.run() else { throw .exceedsLimit(limit) }
        try inflater.checkTrailer()
        return inflater.output
    }

    /// Up to `count` bytes of what the member inflates to, for sniffing: as much as decodes before an error, the
    /// end of the input or `count`; empty when the bytes are not gzip. Never reads the trailer.
    package static func prefix(_ bytes: UnsafeBufferPointer<UInt8>, count: Int) -> [UInt8] {
        guard var inflater = try? Inflater(member: bytes, capacity: count) else { return [] }
        _ = try? inflater.run()
        return inflater.output
    }
}

/// One gzip member's deflate stream (RFC 1951) inflated into `output`, up to `capacity` bytes.
private struct Inflater {
    private var input: BitReader
    private(set) var output: [UInt8] = []
    private let capacity: Int

    init(member bytes: UnsafeBufferPointer<UInt8>, capacity: Int) throws(Gzip.Failure) {
        guard Gzip.isGzip(bytes), bytes.count >= 10 else { throw .malformed("not a gzip member") }
        let flags = bytes[3]
        guard flags & 0xE0 == 0 else { throw .malformed("reserved header flags set") }
        var offset = 10
        if flags & 0x04 != 0 {  // FEXTRA: a two-byte length, then that many bytes
            guard offset + 2 <= bytes.count else { throw .malformed("truncated header") }
            offset += 2 + (Int(bytes[offset]) | Int(bytes[offset + 1]) << 8)
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT: zero-terminated
            while offset < bytes.count, bytes[offset] != 0 { offset += 1 }
            offset += 1
        }
        if flags & 0x02 != 0 { offset += 2 }  // FHCRC
        guard offset <= bytes.count else { throw .malformed("truncated header") }
        input = BitReader(bytes: bytes, position: offset)
        self.capacity = max(0, capacity)
        output.reserveCapacity(min(self.capacity, max(4096, bytes.count * 4)))
    }

    /// Output bytes between two looks at the pool job's cancellation.
    static let cancellationInterval = 1 << 16
    /// The output size at which `compressed` next looks at the cancellation.
    private var nextCancellationCheck = Inflater.cancellationInterval

    /// Inflates blocks until the last one ends (true) or the output reaches the capacity with more to come (false).
    mutating func run() throws(Gzip.Failure) -> Bool {
        var last = false
        while !last {
            last = try input.bits(1) == 1
            switch try input.bits(2) {
            case 0: guard try stored() else { return false }
            case 1:
                guard try compressed(literals: Huffman.fixedLiterals, distances: Huffman.fixedDistances) else {
                    return false
                }
            case 2:
                let (literals, distances) = try dynamicTables()
                guard try compressed(literals: literals, distances: distances) else { return false }
            default: throw .malformed("invalid deflate block type")
            }
        }
        return true
    }

    /// The CRC-32 and length (mod 2^32) after the deflate stream must match what came out.
    mutating func checkTrailer() throws(Gzip.Failure) {
        input.alignToByte()
        let crc = try input.bits(16) | (try input.bits(16)) << 16
        let size = try input.bits(16) | (try input.bits(16)) << 16
        guard crc == Int(CRC32.checksum(output)) else { throw .malformed("CRC-32 mismatch") }
        guard size == output.count & 0xFFFF_FFFF else { throw .malformed("length mismatch") }
    }

    private mutating func stored() throws(Gzip.Failure) -> Bool {
        input.alignToByte()
        let length = try input.bits(16)
        let complement = try input.bits(16)
        guard length == ~complement & 0xFFFF else { throw .malformed("stored block length check failed") }
        for _ in 0..<length {
            guard output.count < capacity else { return false }
            output.append(UInt8(try input.bits(8)))
        }
        return true
    }

    private static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83,
        99, 115, 131, 163, 195, 227, 258,
    ]
    private static let lengthExtra = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5,
        5, 0,
    ]
    private static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
        1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11,
        11, 12, 12, 13, 13,
    ]

    private mutating func compressed(literals: Huffman, distances: Huffman) throws(Gzip.Failure) -> Bool {
        while true {
            if output.count >= nextCancellationCheck {
                // About a millisecond of inflating between looks: a cancelled request stops here, not at the limit.
                nextCancellationCheck = output.count + Self.cancellationInterval
                if WorkerPool.isCancelled { throw .cancelled }
            }
            let symbol = try literals.decode(&input)
            if symbol < 256 {
                guard output.count < capacity else { return false }
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return true }
            let index = symbol - 257
            guard index < 29 else { throw .malformed("invalid length code") }
            let length = Self.lengthBase[index] + (try input.bits(Self.lengthExtra[index]))
            let code = try distances.decode(&input)
            guard code < 30 else { throw .malformed("invalid distance code") }
            let distance = Self.distanceBase[code] + (try input.bits(Self.distanceExtra[code]))
            guard distance <= output.count else { throw .malformed("distance before the start of the output") }
            let start = output.count - distance
            for i in 0..<length {
                guard output.count < capacity else { return false }
                output.append(output[start + i])
            }
        }
    }

    /// The code lengths of a dynamic block, themselves Huffman coded (RFC 1951 3.2.7).
    private mutating func dynamicTables() throws(Gzip.Failure) -> (Huffman, Huffman) {
        let literalCount = try input.bits(5) + 257
        let distanceCount = try input.bits(5) + 1
        let codeLengthCount = try input.bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw .malformed("too many codes") }
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengths = [Int](repeating: 0, count: 19)
        for i in 0..<codeLengthCount { codeLengths[order[i]] = try input.bits(3) }
        let lengthCode = try Huffman(lengths: codeLengths[...])
        var lengths: [Int] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try lengthCode.decode(&input)
            var value = 0
            var repeats = 1
            switch symbol {
            case 0...15: value = symbol
            case 16:
                guard let previous = lengths.last else { throw .malformed("repeat with no previous length") }
                value = previous
                repeats = 3 + (try input.bits(2))
            case 17: repeats = 3 + (try input.bits(3))
            default: repeats = 11 + (try input.bits(7))
            }
            guard lengths.count + repeats <= literalCount + distanceCount else { throw .malformed("too many lengths") }
            lengths.append(contentsOf: repeatElement(value, count: repeats))
        }
        guard lengths[256] != 0 else { throw .malformed("no end-of-block code") }
        return (try Huffman(lengths: lengths[0..<literalCount]), try Huffman(lengths: lengths[literalCount...]))
    }
}

/// Bits from the input, least significant first, as deflate packs them.
private struct BitReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    private var buffer: UInt64 = 0
    private var count = 0

    init(bytes: UnsafeBufferPointer<UInt8>, position: Int) {
        self.bytes = bytes
        self.position = position
    }

    /// The next `n` bits (0...16) as an integer.
    mutating func bits(_ n: Int) throws(Gzip.Failure) -> Int {
        while count < n {
            guard position < bytes.count else { throw .malformed("truncated deflate stream") }
            buffer |= UInt64(bytes[position]) << UInt64(count)
            position += 1
            count += 8
        }
        let value = Int(buffer & ((1 << UInt64(n)) - 1))
        buffer >>= UInt64(n)
        count -= n
        return value
    }

    /// Drops the rest of the current byte (fewer than 8 bits are ever buffered between reads).
    mutating func alignToByte() {
        buffer = 0
        count = 0
    }
}

/// A canonical Huffman code: how many codes of each length, and the symbols in code order.
private struct Huffman {
    private var counts = [Int](repeating: 0, count: 16)
    private var symbols: [Int] = []

    init(lengths: ArraySlice<Int>) throws(Gzip.Failure) {
        for length in lengths { counts[length] += 1 }
        counts[0] = 0
        var left = 1
        for length in 1...15 {
            left = left << 1 - counts[length]
            guard left >= 0 else { throw .malformed("over-subscribed Huffman code") }
        }
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        symbols = [Int](repeating: 0, count: offsets[15] + counts[15])
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
    }

    /// Reads one symbol, a bit at a time (the first code of each length is `first`, its symbols from `index`).
    func decode(_ input: inout BitReader) throws(Gzip.Failure) -> Int {
        var code = 0
        var first = 0
        var index = 0
        for length in 1...15 {
            code |= try input.bits(1)
            let count = counts[length]
            if code - first < count { return symbols[index + code - first] }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw .malformed("invalid Huffman code")
    }

    static let fixedLiterals: Huffman = {
        let lengths =
            [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
            + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8)
        return try! Huffman(lengths: lengths[...])  // a complete code by construction
    }()

    static let fixedDistances: Huffman = {
        try! Huffman(lengths: [Int](repeating: 5, count: 30)[...])  // incomplete but valid, as RFC 1951 defines it
    }()
}

/// CRC-32 (ISO-HDLC, reflected 0xEDB88320), the gzip trailer's checksum.
private enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}

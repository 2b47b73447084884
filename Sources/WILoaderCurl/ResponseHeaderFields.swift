/// The header fields of the latest response, collected from libcurl's raw header lines on their UTF-8 bytes.
///
/// Names are lower-cased (ASCII letters only, as HTTP field names are tokens); names and values lose leading and
/// trailing ASCII whitespace; a repeated field's values are joined with ", "; a status line (`HTTP/...`, one per
/// response: redirects and 1xx responses too) starts over. Lines without a colon (the blank line ending the head,
/// obsolete folded continuations) are ignored. Values are decoded as UTF-8, invalid bytes repaired to U+FFFD.
///
/// Thread safety: a value type; confined to the transfer that fills it.
struct ResponseHeaderFields {
    /// The fields so far, by lower-cased name.
    private(set) var fields: [String: String] = [:]

    /// Forgets every field.
    mutating func removeAll() { fields = [:] }

    /// Adds one raw header line (CRLF included or not).
    mutating func add(line: UnsafeRawBufferPointer) {
        let bytes = line.bindMemory(to: UInt8.self)
        if Self.isStatusLine(bytes) {
            removeAll()
            return
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = Self.trimmed(bytes, bytes.startIndex, colon, isSpace: Self.isNameSpace)
        let value = Self.trimmed(bytes, colon + 1, bytes.endIndex, isSpace: Self.isValueSpace)
        let key = Self.lowercasedASCII(UnsafeBufferPointer(rebasing: bytes[name]))
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self)
        // Room for a typical head at once (a server sends 5 to 15 fields) instead of growing 1, 3, 6, 12.
        if fields.isEmpty { fields.reserveCapacity(16) }
        if let index = fields.index(forKey: key) {
            fields.values[index] += ", " + text
        } else {
            fields[key] = text
        }
    }

    private static func isStatusLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let prefix: StaticString = "HTTP/"
        guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { expected in
            expected.indices.allSatisfy { bytes[$0] == expected[$0] }
        }
    }

    /// Space and tab, which may surround a field name.
    private static func isNameSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// ASCII whitespace and line ends (space, tab, LF, VT, FF, CR), which may surround a field value.
    private static func isValueSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// The range `start..<end` of `bytes` without the bytes `isSpace` matches at either end.
    private static func trimmed(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
        isSpace: (UInt8) -> Bool
    ) -> Range<Int> {
        var lower = start
        var upper = end
        while lower < upper && isSpace(bytes[lower]) { lower += 1 }
        while upper > lower && isSpace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// `bytes` decoded as UTF-8 with the ASCII letters lower-cased.
    private static func lowercasedASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.contains(where: { (0x41...0x5A).contains($0) }) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (i, byte) in bytes.enumerated() { buffer[i] = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
            return bytes.count
        }
    }
}

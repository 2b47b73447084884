// The string helpers WebImage took from full Foundation, which FoundationEssentials lacks.

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace; what the callers used
    /// `trimmingCharacters(in: .whitespaces)` for, which FoundationEssentials lacks).
    package func trimmingSpacesAndTabs() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }

    /// The bytes of this text with every %XX escape decoded; nil on a malformed escape.
    package func percentDecodedBytes() -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            out.append(high << 4 | low)
        }
        return out
    }

    /// This text with its %XX escapes decoded, as Foundation's `removingPercentEncoding`: nil on a malformed
    /// escape or when the decoded bytes are not UTF-8.
    package var percentDecoded: String? {
        percentDecodedBytes().flatMap { String(validating: $0, as: UTF8.self) }
    }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}

extension StringProtocol {
    /// The text as a JSON string literal: quotes, backslashes and control characters escaped, every other
    /// character as it is (`wi info --json`, thumbor's `meta/`).
    package var jsonQuoted: String {
        var out = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// Recognises an SVG document by its root element, reading only the document's prolog.
enum SVGSniffer {
    /// How far into the bytes the root element may start (a long comment or doctype before it is still found).
    static let scanLimit = 16 * 1024

    /// Whether the first element is `<svg` (followed by whitespace, `>` or `/`), after an optional UTF-8 BOM and any
    /// whitespace, XML declaration, processing instructions, comments and doctype (internal subset included).
    static func startsWithSVGRoot(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let end = Swift.min(b.count, scanLimit)
        var i = 0
        if end >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { i = 3 }
        func has(_ text: StaticString, at offset: Int) -> Bool {
            let count = text.utf8CodeUnitCount
            guard offset + count <= end else { return false }
            for k in 0..<count where b[offset + k] != text.utf8Start[k] { return false }
            return true
        }
        /// The index just past the first `text` at or after `offset`, or nil.
        func skip(past text: StaticString, from offset: Int) -> Int? {
            var k = offset
            while k + text.utf8CodeUnitCount <= end {
                if has(text, at: k) { return k + text.utf8CodeUnitCount }
                k += 1
            }
            return nil
        }
        while i < end {
            switch b[i] {
            case 0x20, 0x09, 0x0A, 0x0D:
                i += 1
            case 0x3C where has("<?", at: i):
                guard let next = skip(past: "?>", from: i + 2) else { return false }
                i = next
            case 0x3C where has("<!--", at: i):
                guard let next = skip(past: "-->", from: i + 4) else { return false }
                i = next
            case 0x3C where has("<!DOCTYPE", at: i):
                guard let next = skipDoctype(b, from: i + 9, end: end) else { return false }
                i = next
            case 0x3C where has("<svg", at: i):
                guard i + 4 < end else { return false }
                return [0x20, 0x09, 0x0A, 0x0D, 0x3E, 0x2F].contains(b[i + 4])
            default:
                return false
            }
        }
        return false
    }

    /// The index past a doctype's closing `>`, stepping over an internal subset in brackets and quoted strings.
    private static func skipDoctype(_ b: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Int? {
        var i = start
        var depth = 0
        var quote: UInt8? = nil
        while i < end {
            let c = b[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == 0x22 || c == 0x27 {
                quote = c
            } else if c == 0x5B {
                depth += 1
            } else if c == 0x5D {
                depth -= 1
            } else if c == 0x3E && depth <= 0 {
                return i + 1
            }
            i += 1
        }
        return nil
    }
}

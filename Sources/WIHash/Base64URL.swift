/// Base64 with the URL- and filename-safe alphabet of RFC 4648 §5 (`-` and `_` for `+` and `/`), as Python's
/// `base64.urlsafe_b64encode`: thumbor's URL signatures (padded, 28 characters for HMAC-SHA1) and the service's
/// ETags (unpadded). An encoding, not a protection: anyone can decode it.
///
/// ```swift
/// Base64URL.encode([0xFB, 0xFF])                  // "-_8="
/// Base64URL.encode([0xFB, 0xFF], padded: false)   // "-_8"
/// ```
///
/// Thread safety: pure functions; safe from any thread.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The base64url text of `bytes`: four characters for every three bytes; the last group, when it holds one or
    /// two bytes, ends in two or one `=` if `padded`, else is cut to the characters that carry bits.
    package static func encode(_ bytes: some Collection<UInt8>, padded: Bool = true) -> String {
        let input = Array(bytes)
        let tail = input.count % 3
        let length = input.count / 3 * 4 + (tail == 0 ? 0 : padded ? 4 : tail + 1)
        return String(unsafeUninitializedCapacity: length) { out in
            var written = 0
            for start in stride(from: 0, to: input.count, by: 3) {
                let count = min(3, input.count - start)
                var group = UInt32(input[start]) << 16
                if count > 1 { group |= UInt32(input[start + 1]) << 8 }
                if count > 2 { group |= UInt32(input[start + 2]) }
                for index in 0..<4 where index <= count || padded {
                    let sextet = Int(group >> UInt32(18 - 6 * index) & 63)
                    out[written] = index <= count ? alphabet[sextet] : UInt8(ascii: "=")
                    written += 1
                }
            }
            return written
        }
    }
}

/// thumbor's URL signature: the URL-safe base64 of HMAC-SHA1(key, the path after the signature), 28 characters.
///
/// `ThumborSignature(key: "secret").sign("300x200/smart/example.com/a.jpg")` gives the segment that goes before
/// the path (`/SIGNATURE/300x200/smart/example.com/a.jpg`), exactly as thumbor's and libthumbor's signers do.
///
/// Thread safety: an immutable value; safe from any thread.
public struct ThumborSignature: Sendable {
    private let key: [UInt8]

    /// A signer with the service's secret key.
    public init(key: String) {
        self.key = Array(key.utf8)
    }

    /// The signature of `path` (the URL path after `/SIGNATURE/`, as sent: not percent-decoded).
    public func sign(_ path: String) -> String {
        Base64URL.encode(SHA1.hmac(key: key, message: Array(path.utf8)))
    }

    /// Whether `signature` is the signature of `path`, compared in constant time.
    public func isValid(_ signature: String, for path: String) -> Bool {
        let expected = Array(sign(path).utf8), given = Array(signature.utf8)
        guard expected.count == given.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }
}

/// Base64 with the URL-safe alphabet (`-` and `_`) and `=` padding, as Python's `base64.urlsafe_b64encode`.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = bytes[start..<min(start + 3, bytes.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << UInt32(16 - 8 * $1.offset) }
            for index in 0..<4 {
                output.append(index <= chunk.count ? alphabet[Int(value >> UInt32(18 - 6 * index) & 63)] : UInt8(ascii: "="))
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

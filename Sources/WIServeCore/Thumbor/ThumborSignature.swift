import WIHash

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
        Base64URL.encode(HMAC.sha1(key: key, message: path.utf8))
    }

    /// Whether `signature` is the signature of `path`, compared in constant time.
    public func isValid(_ signature: String, for path: String) -> Bool {
        let expected = Array(sign(path).utf8)
        let given = Array(signature.utf8)
        guard expected.count == given.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }
}

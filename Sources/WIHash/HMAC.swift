/// HMAC (RFC 2104) over SHA-1 and SHA-256: a message authentication code under a secret key.
///
/// thumbor signs its URLs with HMAC-SHA1 (`ThumborSignature`); HMAC-SHA256 is here for signers that want the
/// newer hash. HMAC stays a sound MAC over SHA-1, whose weakness is collisions, but compare codes in constant time
/// (as `ThumborSignature.isValid` does) and keep keys out of logs. Keys longer than a block (64 bytes) are hashed
/// first; the key pads are hashed in place ahead of the message, so the message is never copied.
///
/// ```swift
/// let code = HMAC.sha1(key: Array("key".utf8), message: Array("The quick brown fox jumps over the lazy dog".utf8))
/// Hex.string(code)   // "de7c9b85b8b78aa6bc8a7a36f70a90701c9db4d9"
/// ```
///
/// Thread safety: pure functions; safe from any thread.
package enum HMAC {
    /// HMAC-SHA1 of `message` under `key`: 20 bytes.
    package static func sha1(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        code(SHA1.self, key: key, message: message, bytes: SHA1.bytes(of:))
    }

    /// HMAC-SHA256 of `message` under `key`: 32 bytes.
    package static func sha256(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        code(SHA256.self, key: key, message: message, bytes: SHA256.bytes(of:))
    }

    /// H((K ^ opad) || H((K ^ ipad) || message)), K being `key` (or its hash) padded with zeros to 64 bytes.
    private static func code<H: BlockHash>(
        _: H.Type, key: some Collection<UInt8>, message: some Collection<UInt8>,
        bytes: (H.State) -> [UInt8]
    ) -> [UInt8] {
        var block = key.count > 64 ? bytes(H.finalState(of: key)) : Array(key)
        block += [UInt8](repeating: 0, count: 64 - block.count)
        func state(afterKeyXOR pad: UInt8) -> H.State {
            var state = H.initialState
            let padded = block.map { $0 ^ pad }
            padded.withUnsafeBytes { H.compress(&state, $0) }
            return state
        }
        let inner = bytes(H.finalState(of: message, from: state(afterKeyXOR: 0x36), prefixLength: 64))
        return bytes(H.finalState(of: inner, from: state(afterKeyXOR: 0x5C), prefixLength: 64))
    }
}

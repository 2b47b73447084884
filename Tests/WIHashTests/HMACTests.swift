import Testing
import WIHash

/// HMAC-SHA1 against every test case of RFC 2202, HMAC-SHA256 against RFC 4231's cases 1-4, 6 and 7 (case 5
/// truncates the output, which `HMAC` does not do), and keys either side of the 64-byte block (values from
/// Python's hmac).
@Suite struct HMACTests {
    static let rfc2202: [(key: [UInt8], message: String, expected: String)] = [
        ([UInt8](repeating: 0x0B, count: 20), "Hi There", "b617318655057264e28bc0b6fb378c8ef146be00"),
        (Array("Jefe".utf8), "what do ya want for nothing?", "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        (
            [UInt8](repeating: 0xAA, count: 20), String(repeating: "\u{DD}", count: 50),
            "125d7342b9ac11cd91a39af48aa17b4f63f175d3"
        ),
        (Array(1...25), String(repeating: "\u{CD}", count: 50), "4c9007f4026250c6bc8414f9bf50c86c2d7235da"),
        ([UInt8](repeating: 0x0C, count: 20), "Test With Truncation", "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04"),
        (
            [UInt8](repeating: 0xAA, count: 80), "Test Using Larger Than Block-Size Key - Hash Key First",
            "aa4ae5e15272d00e95705637ce8a3b55ed402112"
        ),
        (
            [UInt8](repeating: 0xAA, count: 80),
            "Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data",
            "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"
        ),
    ]

    static let rfc4231: [(key: [UInt8], message: String, expected: String)] = [
        (
            [UInt8](repeating: 0x0B, count: 20), "Hi There",
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            Array("Jefe".utf8), "what do ya want for nothing?",
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            [UInt8](repeating: 0xAA, count: 20), String(repeating: "\u{DD}", count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            Array(1...25), String(repeating: "\u{CD}", count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        (
            [UInt8](repeating: 0xAA, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First",
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        (
            [UInt8](repeating: 0xAA, count: 131),
            "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be "
                + "hashed before being used by the HMAC algorithm.",
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ]

    /// The RFCs' messages of repeated 0xDD and 0xCD bytes, written above as strings of U+00DD and U+00CD.
    static func bytes(_ message: String) -> [UInt8] {
        message.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
    }

    @Test(arguments: 0..<7)
    func sha1RFC2202(case index: Int) {
        let (key, message, expected) = Self.rfc2202[index]
        #expect(Hex.string(HMAC.sha1(key: key, message: Self.bytes(message))) == expected)
    }

    @Test(arguments: 0..<6)
    func sha256RFC4231(case index: Int) {
        let (key, message, expected) = Self.rfc4231[index]
        #expect(Hex.string(HMAC.sha256(key: key, message: Self.bytes(message))) == expected)
    }

    /// A 64-byte key is used as it is; a 65-byte one is hashed first.
    @Test func keysAtTheBlockSize() {
        let message = Array("boundary".utf8)
        #expect(
            Hex.string(HMAC.sha1(key: Array(0..<UInt8(64)), message: message))
                == "f367a5da016833fe0c0883bbb5fd86e15393b9d9")
        #expect(
            Hex.string(HMAC.sha1(key: Array(0..<UInt8(65)), message: message))
                == "257c964f6bcd5e331ac048e3695dc64cb38a71ac")
        #expect(
            Hex.string(HMAC.sha256(key: Array(0..<UInt8(64)), message: message))
                == "04660fc313657aa3500078e1f2788cc4e328654092b137f946516e4d7a17adae")
        #expect(
            Hex.string(HMAC.sha256(key: Array(0..<UInt8(65)), message: message))
                == "ea8a9678017bce7c50df43ced20cc4b112ed884969720bb2ec14e24ce582f037")
    }
}

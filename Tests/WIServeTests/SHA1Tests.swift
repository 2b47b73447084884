import Foundation
import Testing
@testable import WIServe

/// SHA-1 against FIPS 180 examples, HMAC-SHA1 against every RFC 2202 test case.
@Suite struct SHA1Tests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
    ])
    func digest(message: String, expected: String) {
        #expect(Self.hex(SHA1.digest(Array(message.utf8))) == expected)
    }

    @Test func digestOfAMillionAs() {
        #expect(Self.hex(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func digestAtBlockBoundaries() {
        // 55, 56 and 64 bytes: the padding spills into a second block at 56.
        #expect(Self.hex(SHA1.digest([UInt8](repeating: 0x61, count: 55))) == "c1c8bbdc22796e28c0e15163d20899b65621d65a")
        #expect(Self.hex(SHA1.digest([UInt8](repeating: 0x61, count: 56))) == "c2db330f6083854c99d4b5bfb6e8f29f201be699")
        #expect(Self.hex(SHA1.digest([UInt8](repeating: 0x61, count: 64))) == "0098ba824b5c16427bd7a1122a5a442a25ec644d")
    }

    static let rfc2202: [([UInt8], [UInt8], String)] = [
        ([UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8), "b617318655057264e28bc0b6fb378c8ef146be00"),
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        ([UInt8](repeating: 0xAA, count: 20), [UInt8](repeating: 0xDD, count: 50), "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
        (Array(1...25), [UInt8](repeating: 0xCD, count: 50), "4c9007f4026250c6bc8414f9bf50c86c2d7235da"),
        ([UInt8](repeating: 0x0C, count: 20), Array("Test With Truncation".utf8), "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04"),
        ([UInt8](repeating: 0xAA, count: 80), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "aa4ae5e15272d00e95705637ce8a3b55ed402112"),
        ([UInt8](repeating: 0xAA, count: 80),
         Array("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8),
         "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"),
    ]

    @Test(arguments: 0..<7)
    func hmacRFC2202(index: Int) {
        let (key, message, expected) = Self.rfc2202[index]
        #expect(Self.hex(SHA1.hmac(key: key, message: message)) == expected)
    }

    @Test func base64URLUsesTheURLSafeAlphabetAndPadding() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8=")
        #expect(Base64URL.encode([0x66, 0x6F, 0x6F, 0x62, 0x61]) == "Zm9vYmE=")
        #expect(Base64URL.encode([0x66, 0x6F, 0x6F, 0x62]) == "Zm9vYg==")
        #expect(Base64URL.encode([0x66, 0x6F, 0x6F]) == "Zm9v")
        #expect(Base64URL.encode([]) == "")
    }
}

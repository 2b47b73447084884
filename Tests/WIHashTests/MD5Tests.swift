import Testing
import WIHash

/// MD5 against the seven test strings of RFC 1321 (A.5), the padding boundaries (values from Python's hashlib),
/// and the allocation-free `Digest` the disk cache names its files with.
@Suite struct MD5Tests {
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func rfc1321(message: String, expected: String) {
        #expect(MD5.digest(Array(message.utf8)).hex == expected)
        // The disk cache's path: the bytes in place.
        #expect(Array(message.utf8).withUnsafeBytes { MD5.digest($0) }.hex == expected)
    }

    /// Bytes 0, 1, 2, ... of each length: 55 is the longest tail padded in one block, 56 and 63 spill into a
    /// second, 64 and 65 start a second message block; 119 and 120 are the same edge one block later.
    @Test(arguments: [
        (55, "6912ee65fff2d9f9ce2508cddf8bcda0"), (56, "51fdd1acda72405dfdfa03fcb85896d7"),
        (63, "48a6295221902e8e0938f773a7185e72"), (64, "b2d3f56bc197fd985d5965079b5e7148"),
        (65, "8bd7053801c768420faf816fadba971c"), (119, "1c772251899a7ff007400b888d6b2042"),
        (120, "b7ba1efc6022e9ed272f00b8831e26e6"),
    ])
    func paddingBoundaries(length: Int, expected: String) {
        #expect(MD5.digest(Array(0..<UInt8(length))).hex == expected)
    }

    @Test func aMillionAs() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(message.withUnsafeBytes { MD5.digest($0) }.hex == "7707d6ae4e027c70eea2a935c2296f21")
    }

    @Test func digestBytesAndWords() {
        let digest = MD5.digest(Array("abc".utf8))  // 90 01 50 98 3c d2 4f b0 | d6 96 3f 7d 28 e1 7f 72
        #expect(digest.low == 0xb04f_d23c_9850_0190)
        #expect(digest.high == 0x727f_e128_7d3f_96d6)
        #expect(
            (0..<16).map { digest[$0] } == [
                0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0,
                0xd6, 0x96, 0x3f, 0x7d, 0x28, 0xe1, 0x7f, 0x72,
            ])
    }

    @Test func writeHexFillsExactlyThirtyTwoBytes() {
        var buffer = [UInt8](repeating: UInt8(ascii: "#"), count: 34)
        buffer.withUnsafeMutableBytes { MD5.digest(Array("abc".utf8)).writeHex(to: $0) }
        #expect(String(decoding: buffer, as: UTF8.self) == "900150983cd24fb0d6963f7d28e17f72##")
    }

    @Test func hexParsesOnlyThirtyTwoLowercaseDigits() {
        func parse(_ text: String) -> MD5.Digest? { Array(text.utf8).withUnsafeBytes { MD5.Digest(hex: $0) } }
        #expect(parse("900150983cd24fb0d6963f7d28e17f72") == MD5.digest(Array("abc".utf8)))
        #expect(parse("d41d8cd98f00b204e9800998ecf8427e")?.hex == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(parse("900150983CD24FB0D6963F7D28E17F72") == nil)  // the cache writes lowercase only
        #expect(parse("900150983cd24fb0d6963f7d28e17f7") == nil)
        #expect(parse("900150983cd24fb0d6963f7d28e17f72a") == nil)
        #expect(parse("900150983cd24fb0d6963f7d28e17fg2") == nil)
    }
}

import Testing
import WIHash

/// SHA-1 against the FIPS 180 / NIST examples and the padding boundaries (values from Python's hashlib).
@Suite struct SHA1Tests {
    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "a49b2446a02c645bf419f995b67091253a04a259"
        ),
    ])
    func nistExamples(message: String, expected: String) {
        #expect(Hex.string(SHA1.digest(message.utf8)) == expected)
    }

    /// Through a collection that is not contiguous (copied once, then hashed).
    @Test func aMillionAs() {
        let digest = SHA1.digest(repeatElement(UInt8(ascii: "a"), count: 1_000_000))
        #expect(Hex.string(digest) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    /// Bytes 0, 1, 2, ... of each length, across the one-block and two-block paddings.
    @Test(arguments: [
        (55, "8ae2d46729cfe68ff927af5eec9c7d1b66d65ac2"), (56, "636e2ec698dac903498e648bd2f3af641d3c88cb"),
        (63, "6d942da0c4392b123528f2905c713a3ce28364bd"), (64, "c6138d514ffa2135bfce0ed0b8fac65669917ec7"),
        (65, "69bd728ad6e13cd76ff19751fde427b00e395746"), (119, "41c89d06001bab4ab78736b44efe7ce18ce6ae08"),
        (120, "d3dbd653bd8597b7475321b60a36891278e6a04a"),
    ])
    func paddingBoundaries(length: Int, expected: String) {
        let digest = SHA1.digest(Array(0..<UInt8(length)))
        #expect(digest.count == 20)
        #expect(Hex.string(digest) == expected)
    }
}

import Testing
import WIHash

/// base64url against the test vectors of RFC 4648 §10 (which use no character the URL-safe alphabet changes),
/// the two characters it does change, and every character of the alphabet in order.
@Suite struct Base64URLTests {
    @Test(arguments: [
        ("", "", ""), ("f", "Zg==", "Zg"), ("fo", "Zm8=", "Zm8"), ("foo", "Zm9v", "Zm9v"),
        ("foob", "Zm9vYg==", "Zm9vYg"), ("fooba", "Zm9vYmE=", "Zm9vYmE"), ("foobar", "Zm9vYmFy", "Zm9vYmFy"),
    ])
    func rfc4648(input: String, padded: String, unpadded: String) {
        #expect(Base64URL.encode(input.utf8) == padded)
        #expect(Base64URL.encode(input.utf8, padded: false) == unpadded)
    }

    /// Where standard base64 writes "+" and "/", base64url writes "-" and "_".
    @Test func urlSafeCharacters() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8=")  // standard: "+/8="
        #expect(Base64URL.encode([0xFB, 0xEF, 0xFF]) == "--__")  // standard: "++//"
    }

    /// The 48 bytes whose encoding is the whole alphabet, each value 0...63 once, in order.
    @Test func everyCharacterOfTheAlphabet() {
        var bytes = [UInt8]()
        for group in stride(from: 0, to: 64, by: 4) {
            let bits = UInt32(group) << 18 | UInt32(group + 1) << 12 | UInt32(group + 2) << 6 | UInt32(group + 3)
            bytes += [UInt8(bits >> 16), UInt8(bits >> 8 & 0xFF), UInt8(bits & 0xFF)]
        }
        // What Python's base64.urlsafe_b64decode gives for the alphabet.
        #expect(
            Hex.string(bytes) == "00108310518720928b30d38f41149351559761969b71d79f"
                + "8218a39259a7a29aabb2dbafc31cb3d35db7e39ebbf3dfbf")
        #expect(Base64URL.encode(bytes) == "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    }
}

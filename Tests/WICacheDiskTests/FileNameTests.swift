import Testing
import WICacheDisk
import WICore

@Suite struct FileNameTests {
    @Test func nilAndPlainKeysAreMD5Hex() {
        #expect(DiskCache.fileName(forKey: nil) == "d41d8cd98f00b204e9800998ecf8427e")  // MD5 of ""
        #expect(DiskCache.fileName(forKey: "") == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(DiskCache.fileName(forKey: "abc") == "900150983cd24fb0d6963f7d28e17f72")
    }

    @Test func urlWithJPEGExtensionKeepsIt() {
        #expect(DiskCache.fileName(forKey: "https://example.com/image.jpg") == "18867d45576d8283d6fabb82406789c8.jpg")
    }

    @Test func dotsOnlyInTheQueryGiveNoExtension() {
        #expect(
            DiskCache.fileName(forKey: "https://example.com/image?format=png.v2")
                == "800d568248834a78896949118c0b8768")
        #expect(!DiskCache.fileName(forKey: "https://example.com/a#frag.png").contains("."))
    }

    @Test func longQueryDoesNotLengthenTheName() {
        let key = "https://example.com/photo.webp?" + String(repeating: "token=abc.def&", count: 100)
        let name = DiskCache.fileName(forKey: key)
        #expect(name.hasSuffix(".webp"))
        #expect(name.count == 32 + 5)
    }

    @Test func extensionLongerThan222IsDropped() {
        let kept = DiskCache.fileName(forKey: "https://example.com/a." + String(repeating: "x", count: 222))
        #expect(kept.count == 32 + 1 + 222)
        #expect(kept.count == 255)  // NAME_MAX exactly
        let dropped = DiskCache.fileName(forKey: "https://example.com/a." + String(repeating: "x", count: 223))
        #expect(dropped.count == 32)
        // The limit counts UTF-8 bytes: 112 two-byte characters (224 bytes) are too long.
        #expect(DiskCache.fileName(forKey: "a." + String(repeating: "é", count: 112)).count == 32)
    }

    @Test func percentEncodedNULAndColonAreRemoved() {
        #expect(
            DiskCache.fileName(forKey: "https://example.com/image.jpg00%00") == "e06b0e5d1bc52cb4fc9f7001fe4e9636.jpg00"
        )
        #expect(DiskCache.fileName(forKey: "a.jp:g") == "3630569f202b1ab259fc441f1c5aa1f3.jpg")
        #expect(!DiskCache.fileName(forKey: "https://example.com/a.b%2Fc").dropFirst(32).contains("/"))
        #expect(DiskCache.fileName(forKey: "https://example.com/a.%3A").count == 32)  // only ":" -> no extension
    }

    @Test func namesAreStableAndDistinct() {
        let names = (0..<1000).map { DiskCache.fileName(forKey: "https://example.com/\($0).png") }
        #expect(Set(names).count == 1000)
        #expect(names[7] == DiskCache.fileName(forKey: "https://example.com/7.png"))
    }

    @Test func digestsOfMultiBlockKeysMatchRFC1321() {
        // Reference digests from RFC 1321 and Python's hashlib; 55, 56, 63 and 64 bytes cross the padding boundary.
        #expect(
            DiskCache.fileName(forKey: String(repeating: "1234567890", count: 8)) == "57edf4a22be3c955ac49da2e2107b67a")
        #expect(DiskCache.fileName(forKey: "abcdefghijklmnopqrstuvwxyz") == "c3fcd3d76192e4007dfb496cca67e13b")
        #expect(DiskCache.fileName(forKey: String(repeating: "A", count: 55)) == "e38a93ffe074a99b3fed47dfbe37db21")
        #expect(DiskCache.fileName(forKey: String(repeating: "A", count: 56)) == "a2f3e2024931bd470555002aa5ccc010")
        #expect(DiskCache.fileName(forKey: String(repeating: "A", count: 63)) == "5f1c4bb2970471a5c75b7ba1dc9ee3ed")
        #expect(DiskCache.fileName(forKey: String(repeating: "A", count: 64)) == "d289a97565bc2d27ac8b8545a5ddba45")
    }

    @Test func onlyTheLastPathSegmentBeforeQueryAndFragmentGivesTheExtension() {
        #expect(DiskCache.fileName(forKey: "https://example.com/a/b.c/d") == "5265c6a3d873b68a43aea948669306a3")
        #expect(
            DiskCache.fileName(forKey: "https://example.com/x.tar.gz?x=1#y") == "2df59d1341944509f1ee604403cb0429.gz")
    }

    @Test func canonicallyEquivalentKeysWithOtherBytesGetOtherNames() {
        // Swift's String == treats the Kelvin sign as "K"; the names follow the bytes.
        #expect("\u{212A}.jpg" == "K.jpg")
        #expect(DiskCache.fileName(forKey: "K.jpg") == "900451877d379113c8379a56d7988267.jpg")
        #expect(DiskCache.fileName(forKey: "\u{212A}.jpg") == "21d9b086b56009a7578c52c1c8076c31.jpg")
    }

    @Test func eachCacheRemembersItsOwnRecentNames() throws {
        // A cache's names of hot keys come from its own memo (no process-wide one): asked again, and past the memo's
        // 1024 names (forgotten all at once), the same as the pure function's; the Kelvin sign still gets its own.
        let root = TestDirectory()
        let first = try DiskCache(name: "a", root: root.path, configuration: .testing())
        let second = try DiskCache(name: "b", root: root.path, configuration: .testing())
        for round in 0..<2 {
            for index in 0..<1500 {
                let key = "https://example.com/\(index).png"
                #expect(first.path(forKey: key) == root("a") + "/" + DiskCache.fileName(forKey: key), "round \(round)")
            }
        }
        #expect(second.path(forKey: "K.jpg") == root("b") + "/900451877d379113c8379a56d7988267.jpg")
        #expect(second.path(forKey: "\u{212A}.jpg") == root("b") + "/21d9b086b56009a7578c52c1c8076c31.jpg")
        #expect(first.path(forKey: "K.jpg") == root("a") + "/900451877d379113c8379a56d7988267.jpg")
    }
}

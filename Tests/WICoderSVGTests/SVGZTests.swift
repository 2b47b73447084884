import Foundation
import Testing
import WICore
import WICoderSVG
import WITestServer
import WITestSupport

/// gzip-compressed SVG (`.svgz`, or SVG whose Content-Encoding was lost): recognised, decoded as the document it
/// inflates to (the pixels are checked against rsvg-convert in `SVGConformanceTests`, rows `svg/svgz/`), and a
/// gzip bomb refused as it inflates.
@Suite struct SVGZTests {
    static let robot = "svg/peers/twelvemonkeys-Android_robot.svg"
    static let robotZ = "svg/svgz/twelvemonkeys-Android_robot.svgz"

    @Test(arguments: [
        "svg/svgz/librsvg-gnome-cool.svgz", robotZ, "svg/svgz/crafted-bomb.svgz",
        "svg/svgz/librsvg-bug515-too-many-elements.svgz",
    ])
    func isDetectedAsSVG(file: String) {
        let data = Fixtures.data(file)
        #expect(ImageFormat.detect(data) == .svg)
        #expect(SVGCoder().canDecode(data))
    }

    @Test func decodesToTheSamePixelsAsThePlainDocument() throws {
        let plain = try SVGCoder().decode(Fixtures.data(Self.robot), options: .init())
        let compressed = try SVGCoder().decode(Fixtures.data(Self.robotZ), options: .init())
        #expect(compressed.size == PixelSize(width: 294, height: 345))
        #expect(compressed.format == .svg)
        #expect(compressed.pixels == plain.pixels)
        // Stored (uncompressed) deflate blocks, as an HTTP server's gzip may send them, decode too.
        let stored = TestResponse.gzip(Fixtures.data(Self.robot)).body
        #expect(try SVGCoder().decode(stored, options: .init()).pixels == plain.pixels)
    }

    /// 64 KiB that inflate to 64 MiB: refused at the 16 MiB document limit, as it inflates (never 64 MiB held).
    @Test func aGzipBombIsDocumentTooLarge() throws {
        let bomb = Fixtures.data("svg/svgz/crafted-bomb.svgz")
        let error = #expect(throws: ImageError.self) { try SVGCoder().decode(bomb, options: .init()) }
        #expect(error?.code == .documentTooLarge)
        #expect(error?.message == "the gzip-compressed SVG document inflates to over 16777216 bytes")
        let small = #expect(throws: ImageError.self) {
            try SVGCoder(maxDocumentBytes: 1 << 20).decode(bomb, options: .init())
        }
        #expect(small?.message == "the gzip-compressed SVG document inflates to over 1048576 bytes")
        // librsvg's own too-many-elements test file inflates to 20,971,588 bytes: over the default limit too.
        let elements = #expect(throws: ImageError.self) {
            try SVGCoder().decode(Fixtures.data("svg/svgz/librsvg-bug515-too-many-elements.svgz"), options: .init())
        }
        #expect(elements?.code == .documentTooLarge)
    }

    /// The limit is on what the document inflates to: a document of exactly the limit decodes, one byte less fails.
    @Test func theLimitIsTheInflatedSize() throws {
        let plain = Fixtures.data(Self.robot)
        let compressed = Fixtures.data(Self.robotZ)
        #expect(compressed.count < plain.count)
        #expect(throws: Never.self) { try SVGCoder(maxDocumentBytes: plain.count).decode(compressed, options: .init()) }
        let error = #expect(throws: ImageError.self) {
            try SVGCoder(maxDocumentBytes: plain.count - 1).decode(compressed, options: .init())
        }
        #expect(error?.code == .documentTooLarge)
    }

    /// Every cut loses the trailer (or more) and every flip in the deflate data breaks it or the CRC-32: a typed
    /// error each time, never a crash or a hang; flips in the header's name or time still decode.
    @Test func damagedMembersAreTypedErrors() {
        let data = Fixtures.data(Self.robotZ)
        let clock = ContinuousClock()
        for cut in DataMutations.truncated(data) {
            let error = #expect(throws: ImageError.self) { try SVGCoder().decode(cut, options: .init()) }
            #expect(error?.code == .badImageData, "cut at \(cut.count)")
        }
        var decoded = 0
        for (index, copy) in DataMutations.bitFlipped(data).enumerated() {
            let started = clock.now
            do {
                _ = try SVGCoder().decode(copy, options: .init())
                decoded += 1
            } catch {
                #expect([.badImageData, .documentTooLarge].contains(error.code), "copy \(index): \(error)")
            }
            #expect(clock.now - started < .seconds(1), "copy \(index)")
        }
        #expect(decoded < 100)
        let crc = #expect(throws: ImageError.self) {
            var broken = data
            broken[broken.count - 5] ^= 0x01  // the CRC-32's last byte
            return try SVGCoder().decode(broken, options: .init())
        }
        #expect(crc?.message == "gzip-compressed SVG: CRC-32 mismatch")
    }
}

import Foundation
import Testing
import WICore
import WICoderSupport
import WICoderPNG
import WITestSupport

@Suite struct PNGCoderTests {
    @Test func sniffsByMagicOnly() {
        #expect(PNGCoder().canDecode(Fixtures.data("pngsuite/basn0g01.png")))
        #expect(!PNGCoder().canDecode(Fixtures.data("formats/sample.jpg")))
        #expect(!PNGCoder().canDecode(Data([0x89, 0x50])))
        #expect(PNGCoder.libraryVersion == "1.6.39")
    }

    @Test func thumbnailFitsTheBoxAndIsFlagged() throws {
        let data = Fixtures.data("png/interlaced-hibiscus.png")  // 312x442
        let image = try PNGCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 100, height: 100)))
        #expect(image.size == PixelSize(width: 71, height: 100))
        #expect(image.flags.contains(.thumbnail))
        let exact = try PNGCoder().decode(
            data,
            options: .init(
                thumbnailPixelSize: .init(width: 100, height: 100),
                preserveAspectRatio: false))
        #expect(exact.size == PixelSize(width: 100, height: 100))
        let larger = try PNGCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 1000, height: 1000)))
        #expect(larger.size == PixelSize(width: 312, height: 442))
        #expect(!larger.flags.contains(.thumbnail))
    }

    @Test func scaleDownLimitBytesWinsOverThumbnail() throws {
        let data = Fixtures.data("png/interlaced-hibiscus.png")
        let image = try PNGCoder().decode(
            data,
            options: .init(
                thumbnailPixelSize: .init(width: 300, height: 300),
                scaleDownLimitBytes: 40_000))
        #expect(image.pixels.byteCount <= 40_000)
        #expect(image.size == PixelSize(width: 84, height: 119))  // 84*119*4 = 39984
    }

    @Test func pixelLimitRefusesBeforeAllocating() throws {
        let error = #expect(throws: ImageError.self) {
            try PNGCoder().decode(Fixtures.data("pngsuite/basn0g01.png"), options: .init(pixelLimit: 32 * 31))
        }
        #expect(error?.code == .pixelLimitExceeded)
        // A header claiming 100000 x 100000 pixels: refused at once, not after a 40 GB allocation.
        let bomb = PNGBuilder.header(width: 100_000, height: 100_000)
        let clock = ContinuousClock()
        let started = clock.now
        let bombError = #expect(throws: ImageError.self) { try PNGCoder().decode(bomb, options: .init()) }
        #expect(bombError?.code == .pixelLimitExceeded)
        #expect(clock.now - started < .seconds(1))
    }

    /// SDWebImage's `test30ThatImageIOPNGPluginBuggyWorkaround`: the indexed PNG's pixel (100, 1) is within 0.01 of
    /// (0.60, 0.91, 0.91, 0.20) straight (ours: 0.604, 0.906, 0.906, 0.196); the 16-bit RGBA PNG keeps 16 bits in SD. Ours decodes it to 8 bits unless
    /// `keep16Bit` asks (decision 0082): half the memory, and what every transformer and encoder takes.
    @Test func sdWebImageIndexedAndSixteenBitPNGs() throws {
        let indexed = try PNGCoder().decode(Fixtures.data("png/indexed-4bit-trns.png"), options: .init())
        let color = indexed.pixels.color(x: 100, y: 1)
        #expect([color.red, color.green, color.blue, color.alpha] == [154, 231, 231, 50])
        let data = Fixtures.data("png/rgba16.png")
        #expect(try PNGCoder().decode(data, options: .init()).pixels.format == .rgba8)
        let deep = try PNGCoder().decode(data, options: .init(keep16Bit: true))
        #expect(deep.pixels.format == .rgba16)
    }

    @Test func premultipliedOutput() throws {
        let straight = try PNGCoder().decode(Fixtures.data("pngsuite/basn6a08.png"), options: .init())
        let premultiplied = try PNGCoder().decode(
            Fixtures.data("pngsuite/basn6a08.png"),
            options: .init(premultipliedAlpha: true))
        #expect(premultiplied.pixels.format == .premultipliedRGBA8)
        #expect(try straight.pixels.converted(to: .premultipliedRGBA8) == premultiplied.pixels)
    }

    @Test func exifOrientationIsAppliedAndICCKept() throws {
        let data = Fixtures.data("png/exif-orientation6-iccp.png")
        let raw = try PNGCoder().decode(data, options: .init(applyOrientation: false))
        #expect(raw.orientation == .right)
        let upright = try PNGCoder().decode(data, options: .init())
        #expect(upright.orientation == .up)
        #expect(upright.pixels == (try raw.pixels.applying(.right)))
        #expect(upright.pixels != raw.pixels)
        #expect(upright.metadata.iccProfile?.count == 672)
        #expect(upright.metadata.exif.map(ImageCoding.ExifReader.orientation(in:)) == .right)
    }

    @Test func decodedThroughTheManager() throws {
        let manager = ImageCodersManager(coders: [PNGCoder()])
        let image = try manager.decode(Fixtures.data("pngsuite/basn2c08.png"), options: .init())
        #expect(image.size == PixelSize(width: 32, height: 32))
        #expect(manager.decodingFormats == [.png])
    }
}

/// Builds PNG byte streams for tests.
enum PNGBuilder {
    static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + payload
        return be32(UInt32(payload.count)) + body + be32(crc32(body))
    }

    static func header(width: UInt32, height: UInt32) -> Data {
        // IHDR, then the start of an IDAT (a zlib header): enough for a decoder to commit to the size.
        let ihdr = be32(width) + be32(height) + [8, 6, 0, 0, 0]
        return Data(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", [0x78, 0x9C])
                + chunk("IEND", []))
    }

    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }
}

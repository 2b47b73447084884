import Foundation
import Testing
import WICore
@testable import WICoderPNG
import WITestSupport

/// PNG files built chunk by chunk, with the image data in stored (uncompressed) deflate blocks so that it can be
/// damaged precisely; CRCs and the Adler-32 are correct unless a test changes them.
struct StoredPNG {
    var width = 16
    var height = 8
    var bitDepth: UInt8 = 8
    var colorType: UInt8 = 2
    /// Stored rows, each starting with its filter byte.
    var rows: [[UInt8]]
    /// The zlib header's window (8-15).
    var windowBits = 15
    var beforeImageData: [(String, [UInt8])] = []
    var afterImageData: [(String, [UInt8])] = []
    /// Into how many IDAT chunks the zlib stream is cut.
    var pieces = 1
    /// Bytes after the zlib stream, inside the IDAT data.
    var trailing: [UInt8] = []
    var withEnd = true

    /// RGB rows of seeded noise, the filter types cycling through 0-4 (every unfilter case, any bytes valid).
    init(width: Int = 16, height: Int = 8, channels: Int = 3) {
        self.width = width
        self.height = height
        var random = SeededRandom(seed: 7)
        rows = (0..<height).map { y in
            [UInt8(y % 5)] + (0..<width * channels).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    /// The zlib stream of `raw` in stored blocks.
    func zlib(_ raw: [UInt8]) -> [UInt8] {
        let cmf = UInt8((windowBits - 8) << 4 | 8)
        let flg = UInt8(31 - (Int(cmf) * 256) % 31)
        var stream = [cmf, flg]
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            let last: UInt8 = offset + count == raw.count ? 1 : 0
            stream += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            stream += raw[offset..<offset + count]
            offset += count
        } while offset < raw.count
        return stream + APNGAnimation.bigEndian(Self.adler32(raw))
    }

    var data: Data {
        var file = Data([137, 80, 78, 71, 13, 10, 26, 10])
        let header =
            APNGAnimation.bigEndian(UInt32(width)) + APNGAnimation.bigEndian(UInt32(height)) + [
                bitDepth, colorType, 0, 0, 0,
            ]
        APNGAnimation.appendChunk("IHDR", header, to: &file)
        for (type, body) in beforeImageData { APNGAnimation.appendChunk(type, body, to: &file) }
        let stream = zlib(rows.flatMap { $0 }) + trailing
        let size = (stream.count + pieces - 1) / pieces
        for start in stride(from: 0, to: stream.count, by: size) {
            APNGAnimation.appendChunk("IDAT", Array(stream[start..<min(stream.count, start + size)]), to: &file)
        }
        for (type, body) in afterImageData { APNGAnimation.appendChunk(type, body, to: &file) }
        if withEnd { APNGAnimation.appendChunk("IEND", [], to: &file) }
        return file
    }

    /// The offset of the first chunk of `type` in `data`.
    static func offset(of type: String, in data: Data) -> Int? {
        var position = 8
        let bytes = [UInt8](data)
        while position + 8 <= bytes.count {
            let length =
                Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8
                | Int(bytes[position + 3])
            if String(decoding: bytes[position + 4..<position + 8], as: UTF8.self) == type { return position }
            position += 12 + length
        }
        return nil
    }
}

@Suite struct PNGWholeBufferDamageTests {
    typealias Paths = PNGWholeBufferTests

    /// Decodes through both paths, expects the same outcome, returns it and whether the whole-buffer path was taken.
    private func both(_ data: Data) -> (PNGWholeBufferTests.Outcome, Bool) {
        let result = Paths.compare(data)
        #expect(result.whole == result.libpng)
        return (result.libpng, result.taken)
    }

    @Test func aSoundFileTakesThePathWithEveryFilterType() throws {
        let (outcome, taken) = both(StoredPNG().data)
        #expect(taken)
        #expect(outcome.size == PixelSize(width: 16, height: 8))
        #expect(outcome.error == nil)
    }

    @Test func theImageDataMayBeCutIntoManyChunks() {
        var builder = StoredPNG(width: 40, height: 30)
        builder.pieces = 97
        let (outcome, taken) = both(builder.data)
        #expect(taken)
        #expect(outcome.size == PixelSize(width: 40, height: 30))
    }

    @Test func aBadFilterTypeIsLibpngsError() {
        var builder = StoredPNG()
        builder.rows[3][0] = 5
        let (outcome, taken) = both(builder.data)
        #expect(!taken)
        #expect(outcome.error?.hasPrefix("1001 ") == true)
    }

    @Test func aBadImageDataCRCIsLibpngsError() throws {
        var bytes = [UInt8](StoredPNG().data)
        let idat = try #require(StoredPNG.offset(of: "IDAT", in: Data(bytes)))
        let length = Int(bytes[idat + 2]) << 8 | Int(bytes[idat + 3])
        bytes[idat + 8 + length] ^= 0x01
        let (outcome, taken) = both(Data(bytes))
        #expect(!taken)
        #expect(outcome.error?.hasPrefix("1001 ") == true)
    }

    @Test func tooMuchOrTooLittleDataGoesToLibpng() {
        var extra = StoredPNG()
        extra.rows.append([0] + [UInt8](repeating: 9, count: 48))
        var short = StoredPNG()
        short.rows.removeLast()
        var trailing = StoredPNG()
        trailing.trailing = [1, 2, 3]
        for builder in [extra, short, trailing] {
            let (_, taken) = both(builder.data)
            #expect(!taken)
        }
    }

    @Test func aSmallWindowIsTakenOnlyWhenTheWholeImageFitsInIt() {
        var fits = StoredPNG(width: 4, height: 4)  // 4 x 13 bytes stored
        fits.windowBits = 8
        var exceeds = StoredPNG(width: 100, height: 4)  // 4 x 301 bytes stored, over a 512-byte window
        exceeds.windowBits = 9
        #expect(both(fits.data).1)
        #expect(!both(exceeds.data).1)
    }

    @Test func chunksAfterTheImageData() throws {
        var exif = StoredPNG()
        let block: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 0]
        exif.afterImageData = [("tEXt", Array("Comment\0hi".utf8)), ("eXIf", block), ("eXIf", [1, 2])]
        let (kept, taken) = both(exif.data)
        #expect(taken)
        #expect(kept.exif == Data(block))

        var critical = StoredPNG()
        critical.afterImageData = [("ABCD", [1])]
        var split = StoredPNG()
        split.afterImageData = [("tEXt", Array("a\0b".utf8)), ("IDAT", [0])]
        var emptyPiece = StoredPNG()
        emptyPiece.afterImageData = [("IDAT", [])]
        var noEnd = StoredPNG()
        noEnd.withEnd = false
        for builder in [critical, split, emptyPiece, noEnd] {
            #expect(!both(builder.data).1)
        }
        #expect(both(noEnd.data).0.error?.hasPrefix("1001 truncated PNG") == true)
    }

    @Test func paletteIndexesPastThePaletteAndWideKeysMatchLibpng() {
        var palette = StoredPNG(width: 8, height: 2, channels: 1)
        palette.colorType = 3
        palette.rows = [[0, 0, 1, 2, 3, 200, 255, 1, 0], [2, 1, 1, 1, 1, 1, 1, 1, 1]]
        palette.beforeImageData = [("PLTE", [10, 20, 30, 40, 50, 60, 70, 80, 90]), ("tRNS", [0, 128])]
        var grey = StoredPNG(width: 8, height: 2, channels: 1)
        grey.colorType = 0
        grey.rows = [[0, 5, 6, 5, 0, 255, 5, 1, 5], [0, 5, 5, 5, 5, 5, 5, 5, 5]]
        grey.beforeImageData = [("tRNS", [1, 5])]  // 0x0105: libpng compares its low byte, 5
        var rgb = StoredPNG(width: 2, height: 1)
        rgb.rows = [[0, 1, 2, 3, 4, 5, 6]]
        rgb.beforeImageData = [("tRNS", [0, 1, 0, 2, 0, 3])]
        for builder in [palette, grey, rgb] {
            let (outcome, taken) = both(builder.data)
            #expect(taken)
            #expect(outcome.error == nil)
        }
        let pixels = both(palette.data).0.pixels
        #expect(
            Array(pixels[0..<24]) == [
                10, 20, 30, 0, 40, 50, 60, 128, 70, 80, 90, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255,
            ])
        #expect(Array(both(grey.data).0.pixels[0..<8]) == [5, 5, 5, 0, 6, 6, 6, 255])
        #expect(both(rgb.data).0.pixels == [1, 2, 3, 0, 4, 5, 6, 255])
    }
}

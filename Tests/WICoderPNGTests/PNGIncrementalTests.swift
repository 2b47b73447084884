import Foundation
import Testing
import WICore
import WICoderPNG
import WITestSupport

@Suite struct PNGIncrementalTests {
    @Test(arguments: [
        "png/interlaced-hibiscus.png", "png/interlaced-hippopotamus.png", "png/indexed-4bit-trns.png",
        "pngsuite/basn6a16.png", "pngsuite/basi0g01.png", "pngsuite/s01n3p01.png", "png/exif-orientation6-iccp.png",
    ])
    func verifierPasses(file: String) throws {
        let data = Fixtures.data(file)
        let report = try ProgressiveCoderVerifier.verify(PNGCoder(), data: data)
        #expect(report.runs == 5)
        #expect(report.partialImages > 0)
    }

    @Test func verifierPassesWithThumbnailAndSixteenBitOptions() throws {
        try ProgressiveCoderVerifier.verify(
            PNGCoder(), data: Fixtures.data("png/rgba16.png"), options: .init(keep16Bit: true))
        try ProgressiveCoderVerifier.verify(
            PNGCoder(), data: Fixtures.data("png/indexed-4bit-trns.png"),
            options: .init(thumbnailPixelSize: .init(width: 64, height: 64)), chunkRuns: 1)
    }

    @Test func rowsAppearAsTheirBytesArrive() throws {
        let data = Fixtures.data("pngsuite/basn2c08.png")  // 32x32, not interlaced
        let reference = try PNGCoder().decode(data, options: .init())
        let decoder = try #require(PNGCoder().makeIncrementalDecoder(header: data.prefix(8), options: .init()))
        #expect(decoder.currentImage() == nil)  // nothing before the header
        let half = 110  // of 145 bytes: IDAT partly there (libpng has delivered 9 to 30 rows)
        #expect(try decoder.append(Data(data.prefix(half))))
        let partial = try #require(decoder.currentImage())
        #expect(partial.flags.contains(.incremental))
        #expect(partial.size == reference.size)
        #expect(partial.pixels.color(x: 0, y: 0) == reference.pixels.color(x: 0, y: 0))  // first row arrived
        #expect(partial.pixels.color(x: 31, y: 31).alpha == 0)  // last row not yet
        let truncated = #expect(throws: ImageError.self) { try decoder.finish() }
        #expect(truncated?.code == .badImageData)
        #expect(try decoder.append(Data(data.suffix(from: data.startIndex + half))))
        #expect(try decoder.finish().pixels == reference.pixels)
    }

    @Test func corruptDataFailsTheDecoderWithATypedError() throws {
        let data = Fixtures.data("pngsuite/xcsn0g01.png")  // IDAT CRC error
        let decoder = try #require(PNGCoder().makeIncrementalDecoder(header: data, options: .init()))
        let error = #expect(throws: ImageError.self) { _ = try decoder.append(data) }
        #expect(error?.code == .badImageData)
        #expect(throws: ImageError.self) { try decoder.finish() }
    }
}

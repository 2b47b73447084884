import Foundation
import Testing
import WICore
@testable import WICoderPNG
import WITestSupport

/// The image data of an encode (CPNGShim's image_data_encode.c): filter choice, libdeflate levels, IDAT pieces.
@Suite struct PNGEncodeImageDataTests {
    /// The chunks of a PNG: type and data.
    private func chunks(_ data: Data) -> [(type: String, body: [UInt8])] {
        let bytes = [UInt8](data)
        var found: [(String, [UInt8])] = []
        var position = 8
        while position + 12 <= bytes.count {
            let length =
                Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8
                | Int(bytes[position + 3])
            found.append(
                (
                    String(decoding: bytes[position + 4..<position + 8], as: UTF8.self),
                    Array(bytes[position + 8..<position + 8 + length])
                ))
            position += 12 + length
        }
        return found
    }

    private func noise(width: Int, height: Int, seed: UInt64 = 3) throws -> Image {
        var random = SeededRandom(seed: seed)
        let bytes = (0..<width * height * 4).map { _ in UInt8.random(in: 0...255, using: &random) }
        return Image(pixels: try PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes))
    }

    @Test func largeImagesGoOutInIDATPiecesOf256KiB() throws {
        let image = try noise(width: 400, height: 400)  // 640,400 stored bytes: three pieces at level 0
        let data = try PNGCoder(compressionLevel: 0).encode(image, as: .png, options: .init())
        let pieces = chunks(data).filter { $0.type == "IDAT" }.map(\.body.count)
        #expect(pieces.count == 3)
        #expect(pieces.dropLast().allSatisfy { $0 == 262_144 })
        #expect(chunks(data).map(\.type).suffix(4) == ["IDAT", "IDAT", "IDAT", "IEND"])
        let (outcome, taken) = PNGWholeBufferTests.decode(data, wholeBuffer: true)
        #expect(taken)
        #expect(outcome.pixels == image.pixels.packedBytes())
    }

    @Test func rowsGetTheFilterWithTheSmallestSumOfAbsoluteDifferences() throws {
        // Row 0 a ramp (Sub leaves 1s; Paeth too, and Sub comes first), rows 1-2 the same ramp (Up leaves 0s),
        // row 3 flat grey 200 (Sub and Paeth leave one -56 and 0s: Sub first), row 4 a ramp of 7s under it (Sub
        // leaves 7s; Paeth's first byte is -200 off). Opaque grey pixels: stored as 8-bit grey, a byte per pixel.
        let width = 16
        let ramp = (0..<width).map { UInt8($0) }
        let rows: [[UInt8]] = [
            ramp, ramp, ramp, [UInt8](repeating: 200, count: width), (0..<width).map { UInt8($0 * 7) },
        ]
        let bytes: [UInt8] = rows.flatMap { row in row.flatMap { value -> [UInt8] in [value, value, value, 255] } }
        let image = Image(pixels: try PixelBuffer(width: width, height: rows.count, format: .rgba8, bytes: bytes))
        let data = try PNGCoder(compressionLevel: 0).encode(image, as: .png, options: .init())
        let stream = chunks(data).filter { $0.type == "IDAT" }.flatMap(\.body)
        // zlib header (2), stored block header (5), then rows of 1 + 16 bytes.
        let filters = (0..<rows.count).map { stream[7 + $0 * (width + 1)] }
        #expect(filters == [1, 2, 2, 1, 1])
        #expect(try PNGCoder().decode(data, options: .init()).pixels == image.pixels)
    }

    /// libpng's heuristic written out plainly: each filter's bytes for the row, weighed as signed bytes; the
    /// lightest wins, the earliest on a tie.
    private func referenceFilter(_ row: [UInt8], prior: [UInt8], bpp: Int) -> [UInt8] {
        func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
            let p = Int(a) + Int(b) - Int(c)
            let (pa, pb, pc) = (abs(p - Int(a)), abs(p - Int(b)), abs(p - Int(c)))
            return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
        }
        let candidates: [[UInt8]] = (0..<5).map { type in
            row.indices.map { i in
                let (x, b) = (row[i], prior[i])
                let a: UInt8 = i >= bpp ? row[i - bpp] : 0
                let c: UInt8 = i >= bpp ? prior[i - bpp] : 0
                switch type {
                case 1: return x &- a
                case 2: return x &- b
                case 3: return x &- UInt8((Int(a) + Int(b)) / 2)
                case 4: return x &- paeth(a, b, c)
                default: return x
                }
            }
        }
        let weights = candidates.map { $0.reduce(0) { $0 + ($1 < 128 ? Int($1) : 256 - Int($1)) } }
        let best = weights.indices.min { weights[$0] < weights[$1] }!
        return [UInt8(best)] + candidates[best]
    }

    @Test func everyRowMatchesLibpngsHeuristicWrittenOut() throws {
        // RGBA (alpha varies, so 4 bytes a pixel) 37 wide, rows of seeded noise, ramps, copies of the row above,
        // diagonal ramps and flat colour in turn: each filter type wins somewhere, on rows whose width is not a
        // multiple of any vector size.
        let (width, height) = (37, 40)
        var random = SeededRandom(seed: 26)
        var rows: [[UInt8]] = []
        for y in 0..<height {
            let row: [UInt8]
            switch y % 5 {
            case 0: row = (0..<width * 4).map { _ in UInt8.random(in: 0...255, using: &random) }
            case 1: row = (0..<width * 4).map { (i: Int) -> UInt8 in UInt8(truncatingIfNeeded: i * 3 + y) }
            case 2: row = rows[y - 1]
            case 3:
                row = (0..<width * 4).map { (i: Int) -> UInt8 in UInt8(truncatingIfNeeded: (i / 4) * 5 + y * 7 + i % 4)
                }
            default: row = (0..<width * 4).map { (i: Int) -> UInt8 in i % 4 == 3 ? 128 : UInt8(40 + 50 * (i % 4)) }
            }
            rows.append(row)
        }
        let image = Image(
            pixels: try PixelBuffer(width: width, height: height, format: .rgba8, bytes: rows.flatMap { $0 }))
        let data = try PNGCoder(compressionLevel: 0).encode(image, as: .png, options: .init())
        let stream = chunks(data).filter { $0.type == "IDAT" }.flatMap(\.body)
        // zlib header (2), one stored block header (5): the rows, 1 + 148 bytes each, then the Adler-32.
        let stride = width * 4 + 1
        #expect(stream.count == 2 + 5 + stride * height + 4)
        var prior = [UInt8](repeating: 0, count: width * 4)
        var types: Set<UInt8> = []
        for y in 0..<height {
            let stored = Array(stream[7 + y * stride..<7 + (y + 1) * stride])
            #expect(stored == referenceFilter(rows[y], prior: prior, bpp: 4), "row \(y)")
            types.insert(stored[0])
            prior = rows[y]
        }
        #expect(types == [0, 1, 2, 3, 4])
        #expect(try PNGCoder().decode(data, options: .init()).pixels == image.pixels)
    }

    @Test func higherLevelsGiveSmallerFiles() throws {
        let photo = try PNGCoder().decode(Fixtures.data("png/interlaced-hibiscus.png"), options: .init())
        let sizes = try [0, 1, 6, 9].map {
            try PNGCoder(compressionLevel: $0).encode(photo, as: .png, options: .init()).count
        }
        #expect(sizes[0] > photo.pixels.width * photo.pixels.height * 3)
        #expect(sizes[0] > sizes[1] && sizes[1] > sizes[2] && sizes[2] >= sizes[3])
        for level in [0, 6] {
            let data = try PNGCoder(compressionLevel: level).encode(photo, as: .png, options: .init())
            #expect(try PNGCoder().decode(data, options: .init()).pixels == photo.pixels)
        }
    }

    @Test func exifIsWrittenOnceBeforeTheImageData() throws {
        let source = try PNGCoder().decode(Fixtures.data("png/exif-orientation6-iccp.png"), options: .init())
        let data = try PNGCoder().encode(source, as: .png, options: .init())
        let types = chunks(data).map(\.type)
        #expect(types.filter { $0 == "eXIf" }.count == 1)
        #expect(try #require(types.firstIndex(of: "eXIf")) < #require(types.firstIndex(of: "IDAT")))
        #expect(types.contains("iCCP"))
        let decoded = try PNGCoder().decode(data, options: .init())
        #expect(decoded.metadata.iccProfile == source.metadata.iccProfile)
        #expect(decoded.pixels == source.pixels)
    }
}

import Foundation
import Testing
import WICore
import WICoderBMP
import WICoderPNG
import WITestSupport

/// ICO and CUR: the directory, the entry choice, the AND mask and PNG entries.
@Suite struct ICOTests {
    typealias B = BMPBuilder

    /// A 24-bit entry of one colour, its AND mask clearing the top-left pixel.
    static func solidEntry(size: Int, color: (UInt8, UInt8, UInt8)) -> (Int, Int, Int, [UInt8]) {
        let row = (0..<size).flatMap { _ in [color.2, color.1, color.0] }
        let xor = B.padded(Array(repeating: row, count: size))
        let maskStride = ((size + 31) / 32) * 4
        var mask = [UInt8](repeating: 0, count: maskStride * size)
        mask[(size - 1) * maskStride] = 0x80  // last stored row = top row; first bit = x 0
        return (size, size, 24, B.iconBitmap(width: size, height: size, bitCount: 24, xor: xor, and: mask))
    }

    static let threeSizes = B.icon([
        solidEntry(size: 16, color: (255, 0, 0)), solidEntry(size: 48, color: (0, 255, 0)),
        solidEntry(size: 32, color: (0, 0, 255)),
    ])

    @Test func theLargestEntryWithoutAThumbnailAndTheAndMaskApplies() throws {
        let image = try BMPCoder().decode(Self.threeSizes, options: .init())
        #expect(image.format == .ico)
        #expect(image.size == PixelSize(width: 48, height: 48))
        #expect(image.flags == [])
        #expect(image.pixels.color(x: 0, y: 0).alpha == 0)
        #expect(image.pixels.color(x: 1, y: 0) == RGBAColor(red: 0, green: 255, blue: 0))
        #expect(image.pixels.color(x: 0, y: 47) == RGBAColor(red: 0, green: 255, blue: 0))
    }

    @Test(arguments: [
        (10, 16, 10, 255, 0, 0), (16, 16, 16, 255, 0, 0), (17, 32, 17, 0, 0, 255),
        (32, 32, 32, 0, 0, 255), (40, 48, 40, 0, 255, 0), (100, 48, 48, 0, 255, 0),
    ])
    func theEntryClosestAboveTheThumbnail(box: Int, entry: Int, output: Int, r: UInt8, g: UInt8, b: UInt8) throws {
        let image = try BMPCoder().decode(
            Self.threeSizes,
            options: .init(thumbnailPixelSize: PixelSize(width: box, height: box)))
        #expect(image.size == PixelSize(width: output, height: output), "entry \(entry)")
        #expect(image.pixels.color(x: output / 2, y: output / 2) == RGBAColor(red: r, green: g, blue: b))
        #expect(image.flags == (output < 48 ? [.thumbnail] : []))
    }

    @Test func thirtyTwoBitAlphaWinsUnlessItIsAllZero() throws {
        // 2x1 BGRA; the AND mask sets both bits. With alpha the mask is ignored; all-zero alpha -> the mask decides.
        let mask: [UInt8] = [0b0100_0000, 0, 0, 0]
        let withAlpha = B.iconBitmap(width: 2, height: 1, bitCount: 32, xor: [1, 2, 3, 200, 4, 5, 6, 0], and: mask)
        let image = try BMPCoder().decode(B.icon([(2, 1, 32, withAlpha)]), options: .init())
        #expect(image.pixels.color(x: 0, y: 0) == RGBAColor(red: 3, green: 2, blue: 1, alpha: 200))
        #expect(image.pixels.color(x: 1, y: 0).alpha == 0)
        let zeroAlpha = B.iconBitmap(width: 2, height: 1, bitCount: 32, xor: [1, 2, 3, 0, 4, 5, 6, 0], and: mask)
        let masked = try BMPCoder().decode(B.icon([(2, 1, 32, zeroAlpha)]), options: .init())
        #expect(masked.pixels.color(x: 0, y: 0) == RGBAColor(red: 3, green: 2, blue: 1, alpha: 255))
        #expect(masked.pixels.color(x: 1, y: 0) == RGBAColor(red: 6, green: 5, blue: 4, alpha: 0))
    }

    @Test func cursorsDecodeLikeIcons() throws {
        var cursor = [UInt8](Self.threeSizes)
        cursor[2] = 2
        let image = try BMPCoder().decode(Data(cursor), options: .init())
        #expect(image.format == .cur)
        #expect(image.size == PixelSize(width: 48, height: 48))
        #expect(image.pixels.color(x: 0, y: 0).alpha == 0)
        let real = try BMPCoder().decode(Fixtures.data("bmp/tm-hand.cur"), options: .init())
        #expect(real.format == .cur)
        #expect(real.size == PixelSize(width: 32, height: 32))
    }

    /// Hotspots as the files' directory entries hold them (read with Python's struct for the expected values),
    /// scaled with the pixels for a thumbnail; icons have none.
    @Test func cursorHotspotsAreInTheMetadata() throws {
        let expected: [(String, Int, ImageCoding.PixelPoint)] = [
            ("fc-cursor-hot-spot.cur", 21, ImageCoding.PixelPoint(x: 8, y: 8)),
            ("fc-cursor-crosshair.cur", 17, ImageCoding.PixelPoint(x: 8, y: 8)),
            ("fc-24bipp-6x6.cur", 6, ImageCoding.PixelPoint(x: 4, y: 1)),
            ("fc-24bipp-256x256.cur", 256, ImageCoding.PixelPoint(x: 254, y: 254)),
        ]
        for (file, side, hotspot) in expected {
            let image = try BMPCoder().decode(Fixtures.data("bmp/\(file)"), options: .init())
            #expect(image.size == PixelSize(width: side, height: side), "\(file)")
            #expect(image.metadata.cursorHotspot == hotspot, "\(file)")
        }
        let small = try BMPCoder().decode(
            Fixtures.data("bmp/fc-24bipp-256x256.cur"),
            options: .init(thumbnailPixelSize: .init(width: 64, height: 64)))
        #expect(
            small.size == PixelSize(width: 64, height: 64)
                && small.metadata.cursorHotspot == ImageCoding.PixelPoint(x: 63, y: 63))
        let icon = try BMPCoder().decode(Fixtures.data("bmp/fc-24bipp.ico"), options: .init())
        #expect(icon.metadata.cursorHotspot == nil)
    }

    @Test func pngEntriesNeedAPNGCoder() throws {
        let data = Fixtures.data("bmp/irs-png-32bpp-alpha.ico")
        let error = #expect(throws: ImageError.self) { try BMPCoder().decode(data, options: .init()) }
        #expect(error?.code == .unsupportedFormat)
        let image = try BMPCoder(pngCoder: PNGCoder()).decode(data, options: .init())
        #expect(image.format == .ico)
        #expect(image.size == PixelSize(width: 32, height: 32))
        #expect(image.pixels.format == .rgba8)
    }

    @Test func hostileDirectoriesAreTypedErrors() {
        let noEntries = Data([0, 0, 1, 0, 0, 0] + [UInt8](repeating: 0, count: 16))
        let outside = B.icon([(16, 16, 32, [])])  // the entry's data would start at the end of the file
        var pastEnd = [UInt8](B.icon([ICOTests.solidEntry(size: 16, color: (1, 2, 3))]))
        pastEnd.replaceSubrange(18..<22, with: B.u32(1 << 30))
        for data in [noEntries, outside, Data(pastEnd)] {
            let error = #expect(throws: ImageError.self) { try BMPCoder().decode(data, options: .init()) }
            #expect(error?.code == .badImageData || error?.code == .unsupportedFormat)
        }
        // An entry whose DIB claims 100000 x 100000 pixels: refused before allocating.
        let huge = B.icon([(0, 0, 24, B.infoHeader(width: 100_000, height: 200_000, bitCount: 24) + [0, 0, 0, 0])])
        let limit = #expect(throws: ImageError.self) { try BMPCoder().decode(huge, options: .init()) }
        #expect(limit?.code == .pixelLimitExceeded)
    }
}

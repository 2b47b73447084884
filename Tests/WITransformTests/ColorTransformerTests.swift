import Foundation
import Testing
import WICore
import WITestSupport
import WITransform

/// Brightness, contrast, channel offsets, colorize, saturation and grayscale as WITransform transformers: thumbor
/// 7.8's bytes on its reference pattern (Tests/Fixtures/serve-color), keys, argument checks, every frame, and
/// 16-bit and premultiplied frames kept in their format.
@Suite struct ColorTransformerTests {
    /// The transformer a reference row's filter names (`brightness(25)`, `rgb(10,-20,30)`, `colorize(..)`,
    /// `saturation(0.5)`, `grayscale()`), nil for the filters other tests cover.
    static func transformer(_ filter: Substring) throws -> (any ImageTransformer)? {
        guard let open = filter.firstIndex(of: "("), filter.last == ")" else { return nil }
        let name = filter[..<open]
        let arguments = filter[filter.index(after: open)..<filter.index(before: filter.endIndex)].split(separator: ",")
        func int(_ index: Int) throws -> Int { try #require(Int(arguments[index])) }
        switch name {
        case "brightness": return try ToneTablesTransformer.brightness(int(0))
        case "contrast": return try ToneTablesTransformer.contrast(int(0))
        case "rgb": return try ToneTablesTransformer.channelOffsets(red: int(0), green: int(1), blue: int(2))
        case "saturation": return try SaturationTransformer(change: try #require(Double(arguments[0])))
        case "grayscale": return GrayscaleTransformer()
        case "equalize": return EqualizeTransformer()
        case "colorize":
            let hex = try #require(UInt32(arguments[3], radix: 16))
            let color = RGBAColor(red: UInt8(hex >> 16 & 0xFF), green: UInt8(hex >> 8 & 0xFF), blue: UInt8(hex & 0xFF))
            return try ToneTablesTransformer.colorize(red: int(0), green: int(1), blue: int(2), toward: color)
        default: return nil
        }
    }

    @Test func matchesThumborByteForByte() throws {
        let text = try String(contentsOf: Fixtures.url("serve-color/thumbor-color-reference.tsv"), encoding: .utf8)
        let source = Image(pixels: try ThumborReference.pattern())
        var checked = 0
        for fields in ThumborReference.rows(text) {
            guard let transformer = try Self.transformer(fields[0]) else { continue }
            let output = try transformer.transform(source).pixels
            #expect(output.format == .rgba8 && output.size == source.size)
            #expect(output.packedBytes() == (try ThumborReference.bytes(hex: fields[1])), "\(fields[0])")
            checked += 1
        }
        #expect(checked == 18)  // the table's brightness, contrast, rgb, colorize, saturation, grayscale, equalize rows
    }

    @Test func keysNameTheOperationAndItsArguments() throws {
        #expect(try ToneTablesTransformer.brightness(20).key == "ToneTables(brightness,20)")
        #expect(try ToneTablesTransformer.contrast(-5).key == "ToneTables(contrast,-5)")
        #expect(try ToneTablesTransformer.channelOffsets(red: 1, green: 2, blue: 3).key == "ToneTables(offsets,1,2,3)")
        #expect(try SaturationTransformer(change: 0.5).key == "Saturation(0.5)")
        #expect(GrayscaleTransformer().key == "Grayscale()")
        #expect(
            EqualizeTransformer().key == "Equalize()" && (.equalize as EqualizeTransformer) == EqualizeTransformer())
        let curve = try ToneTablesTransformer.toneCurves(all: [(0, 0), (128, 160), (255, 255)])
        #expect(curve.key.hasPrefix("ToneTables(curves,"))
        #expect(curve == (try ToneTablesTransformer.toneCurves(all: [(0, 0), (128, 160), (255, 255)])))
        // The identity curve changes nothing.
        let identity = try ToneTablesTransformer.toneCurves(all: [])
        #expect(identity.red == Array(0...255) && identity.blue == Array(0...255))
        // Factories read as Nuke's do.
        let factory: any ImageTransformer = try .brightness(20)
        #expect(factory.key == "ToneTables(brightness,20)")
        #expect((.grayscale as GrayscaleTransformer).key == "Grayscale()")
    }

    @Test func badArgumentsAreInvalidArguments() throws {
        let black = RGBAColor(red: 0, green: 0, blue: 0)
        try expectInvalid("brightness must be in -1000...1000, got 1001") { try ToneTablesTransformer.brightness(1001) }
        try expectInvalid("contrast must be in -10000...10000, got -10001") {
            try ToneTablesTransformer.contrast(-10_001)
        }
        try expectInvalid("green offset must be in -1000...1000, got 2000") {
            try ToneTablesTransformer.channelOffsets(red: 0, green: 2000, blue: 0)
        }
        try expectInvalid("red percent must be in 0...1000000, got -1") {
            try ToneTablesTransformer.colorize(red: -1, green: 0, blue: 0, toward: black)
        }
        try expectInvalid("curve x must rise, got 5") { try ToneTablesTransformer.toneCurves(all: [(10, 0), (5, 9)]) }
        try expectInvalid("curve y must be in 0...255, got 300") {
            try ToneTablesTransformer.toneCurves(all: [(0, 300)])
        }
        try expectInvalid("red tone table must have 256 entries, got 2") {
            try ToneTablesTransformer(red: [1, 2], green: [], blue: [])
        }
        try expectInvalid("saturation must be a finite number in -1000000...1000000, got nan") {
            try SaturationTransformer(change: .nan)
        }
        try expectInvalid("saturation must be a finite number in -1000000...1000000, got 1000001.0") {
            try SaturationTransformer(change: 1_000_001)
        }
    }

    @Test func sixteenBitAndPremultipliedFramesKeepTheirFormat() throws {
        // 16-bit levels that are multiples of 257 map exactly as their 8-bit levels do.
        let levels: [UInt16] = [0, 257 * 10, 257 * 128, 65_535]
        var wide: [UInt8] = []
        for level in levels {
            for _ in 0..<3 { wide += withUnsafeBytes(of: level) { Array($0) } }
            wide += [0xFF, 0xFF]
        }
        let source = try PixelBuffer(width: 4, height: 1, format: .rgba16, bytes: wide)
        let brighter = try ToneTablesTransformer.brightness(20)
        let output = try brighter.transform(Image(pixels: source)).pixels
        #expect(output.format == .rgba16)
        let samples = output.packedBytes().withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        for (index, level) in levels.enumerated() {
            #expect(samples[index * 4] == UInt16(brighter.red[Int(level / 257)]) * 257)
            #expect(samples[index * 4 + 3] == 65_535)
        }
        let premultiplied = try ThumborReference.pattern().converted(to: .premultipliedRGBA8)
        #expect(try GrayscaleTransformer().transform(Image(pixels: premultiplied)).pixels.format == .premultipliedRGBA8)
    }

    @Test func everyFrameIsTransformed() throws {
        let red = try PixelBuffer(width: 2, height: 1, format: .rgba8, bytes: [200, 0, 0, 255, 200, 0, 0, 255])
        let blue = try PixelBuffer(width: 2, height: 1, format: .rgba8, bytes: [0, 0, 200, 255, 0, 0, 200, 255])
        let animation = Image(
            frames: [ImageFrame(pixels: red, duration: 0.1), ImageFrame(pixels: blue, duration: 0.2)],
            format: .gif)
        let output = try GrayscaleTransformer().transform(animation)
        #expect(output.frameCount == 2)
        #expect(try output.frame(at: 0).pixels.packedBytes() == [60, 60, 60, 255, 60, 60, 60, 255])
        #expect(try output.frame(at: 1).pixels.packedBytes() == [23, 23, 23, 255, 23, 23, 23, 255])
        #expect(try output.frame(at: 1).duration == 0.2)
    }

    /// Equalize on a 4-pixel frame, worked by hand with thumbor's formula: red's levels 10, 10, 50, 200 (cumulative
    /// 2, 3, 4; its minimum 2 at the lowest level any channel has) give 0, 0, 127.5 -> 127, 255; green is one level
    /// (every pixel at the lowest level: thumbor's 0 / 0) and becomes 0; blue has no pixel at level 10, so its
    /// minimum stays 0 (thumbor's loop stops at the first level where any channel has one): 20, 30, 40, 40 give
    /// 1/4, 2/4, 4/4 of 255 -> 63, 127, 255. Alpha is kept; 16-bit frames use 65535 and stay 16-bit.
    @Test func equalizeSpreadsEachChannelAsThumborDoes() throws {
        let bytes: [UInt8] = [10, 10, 20, 255, 10, 10, 30, 128, 50, 10, 40, 255, 200, 10, 40, 0]
        let source = try PixelBuffer(width: 2, height: 2, format: .rgba8, bytes: bytes)
        let output = try EqualizeTransformer().transform(Image(pixels: source)).pixels
        #expect(output.packedBytes() == [0, 0, 63, 255, 0, 0, 127, 128, 127, 0, 255, 255, 255, 0, 255, 0])
        let wide = try source.converted(to: .rgba16)
        let spread = try EqualizeTransformer().transform(Image(pixels: wide)).pixels
        #expect(spread.format == .rgba16)
        let samples = spread.packedBytes().withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        #expect(samples.enumerated().filter { $0.offset % 4 == 0 }.map(\.element) == [0, 0, 32_767, 65_535])
        #expect(samples.enumerated().filter { $0.offset % 4 == 2 }.map(\.element) == [16_383, 32_767, 65_535, 65_535])
    }
}

import Testing
import WICore

@Suite struct AreaAverageResamplerTests {
    @Test func fineCheckerboardShrinksToFlatGrey() throws {
        var bytes: [UInt8] = []
        for y in 0..<100 {
            for x in 0..<100 {
                let v: UInt8 = (x + y) % 2 == 0 ? 255 : 0
                bytes += [v, v, v, 255]
            }
        }
        let board = try PixelBuffer(width: 100, height: 100, format: .rgba8, bytes: bytes)
        let small = try ImageCoding.AreaAverageResampler().resample(board, to: .init(width: 10, height: 10))
        #expect(small.size == .init(width: 10, height: 10))
        for y in 0..<10 {
            for x in 0..<10 {
                let c = small.color(x: x, y: y)
                #expect(abs(Int(c.red) - 128) <= 2 && c.red == c.green && c.green == c.blue && c.alpha == 255)
            }
        }
    }

    @Test func transparentPixelsDoNotBleedColour() throws {
        // Opaque red next to fully transparent green: the average must stay pure red at half alpha.
        let pair = try PixelBuffer(width: 2, height: 1, format: .rgba8, bytes: [255, 0, 0, 255, 0, 255, 0, 0])
        let one = try ImageCoding.AreaAverageResampler().resample(pair, to: .init(width: 1, height: 1))
        #expect(one.color(x: 0, y: 0) == RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
    }

    @Test func upscalingIsSmooth() throws {
        let pair = try PixelBuffer(width: 2, height: 1, format: .rgba8, bytes: [0, 0, 0, 255, 200, 200, 200, 255])
        let wide = try ImageCoding.AreaAverageResampler().resample(pair, to: .init(width: 4, height: 1))
        let reds = (0..<4).map { wide.color(x: $0, y: 0).red }
        #expect(reds == [0, 50, 150, 200])
    }

    @Test func keepsSixteenBitFormat() throws {
        let wide = try PixelBuffer(width: 4, height: 4, format: .rgba16)
        let small = try ImageCoding.AreaAverageResampler().resample(wide, to: .init(width: 2, height: 2))
        #expect(small.format == .rgba16)
    }
}

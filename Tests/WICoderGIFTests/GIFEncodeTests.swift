import Foundation
import Testing
import WICore
import WICoderGIF
import WITestSupport

@Suite struct GIFEncodeTests {
    /// Image descriptors (x, y, width, height) and graphic control disposals of a GIF, by walking its blocks.
    static func layout(_ data: Data) -> (rects: [[Int]], disposals: [Int], loops: Int?) {
        let p = [UInt8](data)
        var offset = 13 + (p[10] & 0x80 != 0 ? 3 << ((Int(p[10]) & 7) + 1) : 0)
        var rects: [[Int]] = []
        var disposals: [Int] = []
        var loops: Int?
        func word(_ at: Int) -> Int { Int(p[at]) | Int(p[at + 1]) << 8 }
        func skip(_ at: Int) -> Int {
            var q = at
            while p[q] != 0 { q += Int(p[q]) + 1 }
            return q + 1
        }
        while offset < p.count && p[offset] != 0x3B {
            if p[offset] == 0x21 {
                if p[offset + 1] == 0xF9 { disposals.append(Int(p[offset + 3]) >> 2 & 7) }
                if p[offset + 1] == 0xFF, p[offset + 3] == 0x4E { loops = word(offset + 16) }
                offset = skip(offset + 2)
            } else {
                rects.append([word(offset + 1), word(offset + 3), word(offset + 5), word(offset + 7)])
                let packed = Int(p[offset + 9])
                offset = skip(offset + 11 + (packed & 0x80 != 0 ? 3 << ((packed & 7) + 1) : 0))
            }
        }
        return (rects, disposals, loops)
    }

    @Test(arguments: ["formats/sample.gif", "gif/any-disposal.gif", "gif/mixed-disposal.gif", "gif/TestLoopCount.gif"])
    func roundTripsExactly(file: String) throws {
        let image = try GIFCoder().decode(Fixtures.data(file), options: .init())
        let encoded = try GIFCoder().encode(image, as: .gif, options: .init())
        let decoded = try GIFCoder().decode(encoded, options: .init())
        #expect(decoded.size == image.size)
        #expect(decoded.loopCount == image.loopCount)
        #expect(decoded.durations == image.durations)
        #expect(decoded.frameCount == image.frameCount)
        for index in try image.frames.indices where index < decoded.frameCount {
            #expect(try decoded.frames[index].pixels == image.frames[index].pixels, "frame \(index)")
        }
    }

    @Test func theSyntheticDisposalAnimationRoundTripsWithOnlyChangedRectangles() throws {
        let image = try GIFCoder().decode(GIFDisposalTests.everyDisposal, options: .init())
        let encoded = try GIFCoder().encode(image, as: .gif, options: .init())
        let decoded = try GIFCoder().decode(encoded, options: .init())
        #expect(try decoded.frames.map { Pixels.letters($0.pixels) } == GIFDisposalTests.expected)
        #expect(decoded.durations == [0.1, 0.05, 0.1, 0.1, 0.1])
        let layout = Self.layout(encoded)
        // By hand, targets RRRR/RRRR/RRRR, RRRR/RGGR/RGGR, BRRR/BB.R/R..R, RRRR/R..R/R..W, RRGG/R..R/R..W:
        // 0: everything changes. 1: the green 2x2 changes; frame 2 makes 3 of its pixels transparent, so it is
        // cleared after showing (disposal 2). 2: over RRRR/R..R/R..R the blue L at (0,0)-(1,1) changes and frame 3
        // makes (1,1) transparent: disposal 2 again. 3: over ..RR/...R/R..R, (0,0)-(3,2) changes. 4: the green pair.
        #expect(layout.rects == [[0, 0, 4, 3], [1, 1, 2, 2], [0, 0, 2, 2], [0, 0, 4, 3], [2, 0, 2, 1]])
        #expect(layout.disposals == [1, 2, 2, 1, 1])
        #expect(layout.loops == 0)
    }

    @Test func loopCounts() throws {
        let frames = try GIFCoder().decode(Fixtures.data("formats/sample.gif"), options: .init()).frames
        for (loopCount, stored) in [(0, 0 as Int?), (1, nil), (5, 4)] {
            let encoded = try GIFCoder().encode(Image(frames: frames, loopCount: loopCount), as: .gif, options: .init())
            #expect(Self.layout(encoded).loops == stored, "loop count \(loopCount)")
            #expect(try GIFCoder().decode(encoded, options: .init()).loopCount == loopCount)
        }
    }

    @Test func manyColoursAreQuantizedClosely() throws {
        // 64x64 gradient with 4096 colours, semi-transparent alpha becomes binary.
        var bytes: [UInt8] = []
        for y in 0..<64 {
            for x in 0..<64 { bytes += [UInt8(x * 4), UInt8(y * 4), UInt8((x + y) * 2), x < 4 ? 0 : 255] }
        }
        let pixels = try PixelBuffer(width: 64, height: 64, format: .rgba8, bytes: bytes)
        let decoded = try GIFCoder().decode(
            try GIFCoder().encode(Image(pixels: pixels), as: .gif, options: .init()),
            options: .init())
        #expect(decoded.size == PixelSize(width: 64, height: 64))
        let out = decoded.pixels.packedBytes()
        var squaredError = 0.0
        for i in stride(from: 0, to: bytes.count, by: 4) {
            #expect(out[i + 3] == bytes[i + 3])
            if bytes[i + 3] == 255 {
                for c in 0..<3 { squaredError += pow(Double(out[i + c]) - Double(bytes[i + c]), 2) }
            }
        }
        let psnr = 10 * log10(255 * 255 / (squaredError / Double(60 * 64 * 3)))
        #expect(psnr > 28, "PSNR \(psnr)")  // 4096 colours into 255 (median cut): 28.7 dB
    }

    @Test func firstFrameOnlyAndMaxPixelSize() throws {
        let image = try GIFCoder().decode(Fixtures.data("formats/sample.gif"), options: .init())
        let first = try GIFCoder().decode(
            try GIFCoder().encode(image, as: .gif, options: .init(firstFrameOnly: true)),
            options: .init())
        #expect(first.frameCount == 1 && first.pixels == image.pixels)
        let small = try GIFCoder().decode(
            try GIFCoder().encode(
                image, as: .gif,
                options: .init(maxPixelSize: .init(width: 25, height: 25))),
            options: .init())
        #expect(small.size == PixelSize(width: 25, height: 25) && small.frameCount == 5)
        #expect(GIFCoder().canEncode(to: .gif) && !GIFCoder().canEncode(to: .png))
        let wrong = #expect(throws: ImageError.self) { try GIFCoder().encode(image, as: .png, options: .init()) }
        #expect(wrong?.code == .unsupportedFormat)
    }
}

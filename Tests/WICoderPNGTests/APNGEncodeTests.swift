import Foundation
import Testing
import WICore
import WICoderPNG
import WITestSupport

@Suite struct APNGEncodeTests {
    /// (width, height, x, y, dispose, blend) of every fcTL, and acTL's (frames, plays).
    static func controls(_ data: Data) -> (frames: [[Int]], animation: [Int]?) {
        let p = [UInt8](data)
        func word(_ at: Int) -> Int { p[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        var offset = 8
        var frames: [[Int]] = []
        var animation: [Int]?
        while offset + 12 <= p.count {
            let length = word(offset)
            let type = String(decoding: p[offset + 4..<offset + 8], as: UTF8.self)
            if type == "fcTL" {
                let b = offset + 8
                frames.append([word(b + 4), word(b + 8), word(b + 12), word(b + 16), Int(p[b + 24]), Int(p[b + 25])])
            }
            if type == "acTL" { animation = [word(offset + 8), word(offset + 12)] }
            offset += 12 + length
        }
        return (frames, animation)
    }

    @Test(arguments: ["apng/combo-d2-b1.png", "apng/combo-d1-b0.png", "png/apng-red-blue.png", "apng/basic_f20.png"])
    func roundTripsExactly(file: String) throws {
        let image = try PNGCoder().decode(Fixtures.data(file), options: .init())
        let encoded = try PNGCoder().encode(image, as: .png, options: .init())
        let decoded = try PNGCoder().decode(encoded, options: .init())
        #expect(decoded.size == image.size)
        #expect(decoded.loopCount == image.loopCount)
        #expect(decoded.durations == image.durations)
        #expect(try decoded.frames.map(\.pixels) == image.frames.map(\.pixels))
        #expect(Self.controls(encoded).animation == [image.frameCount, image.loopCount])
    }

    @Test func laterFramesHoldOnlyTheChangedRectangle() throws {
        let image = try PNGCoder().decode(Fixtures.data("apng/combo-d0-b0.png"), options: .init())
        let encoded = try PNGCoder().encode(image, as: .png, options: .init())
        // From the expected frames (apng-combo-expected.tsv): frame 1 changes the 2x2 at (1,1); frame 2 changes
        // (0,1) green a128 -> green, (0,2) transparent -> grey a50, (0,3) blue -> (10,20,30); frame 3 row 3.
        let frames = Self.controls(encoded).frames
        #expect(frames.count == 4)
        #expect(frames[0] == [4, 4, 0, 0, 0, 0])
        #expect(frames[1] == [2, 2, 1, 1, 0, 0])
        #expect(frames[2] == [1, 3, 0, 1, 0, 0])
        #expect(frames[3] == [4, 1, 0, 3, 0, 0])
    }

    @Test func framesFromElsewhereEncodeWithTheImagesLoopCount() throws {
        let image = Image(
            frames: try PNGCoder().decode(Fixtures.data("png/apng-red-blue.png"), options: .init()).frames,
            loopCount: 0)
        let decoded = try PNGCoder().decode(try PNGCoder().encode(image, as: .png, options: .init()), options: .init())
        #expect(decoded.loopCount == 0)
        #expect(try decoded.frames.map(\.pixels) == image.frames.map(\.pixels))
    }

    @Test func theColourProfileTravelsWithTheAnimation() throws {
        let still = try PNGCoder().decode(Fixtures.data("png/iccp-displayp3.png"), options: .init())
        let profile = try #require(still.metadata.iccProfile)
        var second = still.pixels
        try second.withUnsafeMutableBytes { $0[0] ^= 0xFF }
        let animation = Image(
            frames: [ImageFrame(pixels: still.pixels, duration: 0.5), ImageFrame(pixels: second, duration: 0.5)],
            loopCount: 2, metadata: still.metadata)
        let decoded = try PNGCoder().decode(
            try PNGCoder().encode(animation, as: .png, options: .init()), options: .init())
        #expect(decoded.frameCount == 2 && decoded.loopCount == 2)
        #expect(decoded.metadata.iccProfile == profile)
        #expect(try decoded.frames.map(\.pixels) == [still.pixels, second])
    }

    @Test func firstFrameOnlyWritesAStillPNG() throws {
        let image = try PNGCoder().decode(Fixtures.data("apng/basic_f20.png"), options: .init())
        let encoded = try PNGCoder().encode(image, as: .png, options: .init(firstFrameOnly: true))
        #expect(Self.controls(encoded).animation == nil)
        let decoded = try PNGCoder().decode(encoded, options: .init())
        #expect(decoded.frameCount == 1 && decoded.pixels == image.pixels)
        let small = try PNGCoder().decode(
            try PNGCoder().encode(image, as: .png, options: .init(maxPixelSize: .init(width: 10, height: 10))),
            options: .init())
        #expect(small.size == PixelSize(width: 10, height: 10) && small.frameCount == 20)
    }
}

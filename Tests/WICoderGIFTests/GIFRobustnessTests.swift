import Foundation
import Testing
import WICore
import WICoderGIF
import WITestSupport

/// Truncated, bit-flipped and hostile GIFs: a typed error or an image, never a crash, never slow.
@Suite struct GIFRobustnessTests {
    static let files = [
        "gif/animated-red-blue.gif", "formats/sample.gif", "gif/interlaced-32.gif", "gif/mixed-disposal.gif",
        "gif/TestLoopCount.gif",
    ]

    @Test(arguments: files)
    func truncatedAt32Offsets(file: String) throws {
        let data = Fixtures.data(file)
        let complete = try GIFCoder().decode(data, options: .init())
        for truncated in DataMutations.truncated(data) {
            let cut = truncated.count
            let started = DataMutations.processCPUTime()
            do {
                let image = try GIFCoder().decode(truncated, options: .init())
                // The frames that are complete, flagged incomplete (or the first frame as far as it arrived).
                #expect(image.flags.contains(.incomplete) || image.frameCount < complete.frameCount, "cut at \(cut)")
                #expect(image.frameCount <= complete.frameCount)
                #expect(image.size == complete.size)
                let partialFirst = image.frameCount == 1 && image.flags.contains(.incomplete)
                for index in try image.frames.indices where !partialFirst {
                    #expect(
                        try image.frames[index].pixels == complete.frames[index].pixels, "cut at \(cut), frame \(index)"
                    )
                }
            } catch {
                #expect(error.code == .badImageData, "cut at \(cut)")
            }
            #expect(DataMutations.processCPUTime() - started < .seconds(1))
        }
    }

    @Test func aCutFileKeepsItsCompleteFrames() throws {
        let data = Fixtures.data("gif/animated-red-blue.gif")
        let complete = try GIFCoder().decode(data, options: .init())
        let image = try GIFCoder().decode(data.prefix(data.count - 10), options: .init())  // inside the last frame
        #expect(image.frameCount == 3)
        #expect(try image.frames.map(\.pixels) == Array(complete.frames.prefix(3).map(\.pixels)))
        // inside the first frame (data 1586..<2126, 255-byte sub-blocks)
        let first = try GIFCoder().decode(data.prefix(2050), options: .init())
        #expect(first.frameCount == 1)
        #expect(first.flags.contains(.incomplete))
        #expect(first.pixels.color(x: 0, y: 0) == complete.pixels.color(x: 0, y: 0))
        #expect(first.pixels.color(x: 63, y: 47).alpha == 0)  // rows not yet arrived are transparent
    }

    @Test(arguments: files)
    func hundredBitFlippedCopies(file: String) {
        let survey = DataMutations.survey(DataMutations.bitFlipped(Fixtures.data(file))) { data throws(ImageError) in
            try GIFCoder().decode(data, options: .init())
        }
        #expect(survey.decoded + survey.failed == 100)
        #expect(survey.unexpected == [])
        #expect(survey.slowest < .seconds(1))
    }

    /// 10,000 frames of 1x1 on a 200x200 screen: 400 megapixels if every frame were held. Decoding them all up front,
    /// or asking an image decoded on demand for all of them at once, is refused before any frame is decoded; on
    /// demand, the image holds its bounded frame buffer only.
    @Test func tenThousandFrameBombIsRefusedByThePixelLimit() throws {
        var gif = GIFBuilder(width: 200, height: 200, netscapeLoops: 0)
        gif.frames = Array(repeating: .init(width: 1, height: 1, indices: [1]), count: 10_000)
        let data = gif.build()
        let started = DataMutations.processCPUTime()
        let error = #expect(throws: ImageError.self) {
            try GIFCoder().decode(data, options: .init(preloadAllFrames: true))
        }
        #expect(error?.code == .pixelLimitExceeded)
        let eager = #expect(throws: ImageError.self) {
            try GIFCoder().makeAnimatedDecoder(data, options: .init(preloadAllFrames: true))
        }
        #expect(eager?.code == .pixelLimitExceeded)
        let onDemand = try GIFCoder().decode(data, options: .init())
        #expect(onDemand.frameCount == 10_000 && onDemand.cost <= 2 * DecodeOptions.defaultFrameBufferLimitBytes)
        let all = #expect(throws: ImageError.self) { try onDemand.frames }
        #expect(all?.code == .pixelLimitExceeded)
        #expect(DataMutations.processCPUTime() - started < .seconds(1))
        // The first frame alone is within the limit.
        let first = try GIFCoder().decode(data, options: .init(firstFrameOnly: true))
        #expect(first.frameCount == 1 && Pixels.letters(first.pixels).hasPrefix("G."))
    }

    @Test func notAGIFIsATypedError() {
        let error = #expect(throws: ImageError.self) {
            try GIFCoder().decode(Data("GIF8xa nope".utf8), options: .init())
        }
        #expect(error?.code == .badImageData)
        #expect(!GIFCoder().canDecode(Fixtures.data("formats/sample.png")))
        #expect(GIFCoder().canDecode(Fixtures.data("formats/sample.gif")))
    }
}

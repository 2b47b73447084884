import Foundation
import Testing
import WICore
import WICoderGIF
import WITestSupport

@Suite struct GIFIncrementalTests {
    @Test(arguments: [
        "gif/animated-red-blue.gif", "formats/sample.gif", "gif/interlaced-32.gif", "gif/mixed-disposal.gif",
    ])
    func verifierPasses(file: String) throws {
        let report = try ProgressiveCoderVerifier.verify(GIFCoder(), data: Fixtures.data(file))
        #expect(report.runs == 5)
        #expect(report.partialImages > 0)
    }

    @Test func verifierPassesWithAThumbnail() throws {
        try ProgressiveCoderVerifier.verify(
            GIFCoder(), data: Fixtures.data("gif/animated-red-blue.gif"),
            options: .init(thumbnailPixelSize: .init(width: 32, height: 32)), chunkRuns: 1)
    }

    /// The partial image is the first frame as far as it arrived, then the latest complete frame.
    @Test func framesAppearAsTheyComplete() throws {
        let data = Fixtures.data("gif/animated-red-blue.gif")  // frame data ends at 2126, 2187, 2542, 2912
        let complete = try GIFCoder().decode(data, options: .init())
        let decoder = try #require(GIFCoder().makeIncrementalDecoder(header: data.prefix(64), options: .init()))
        #expect(try !decoder.append(data.prefix(700)))  // inside the local colour table: nothing to show
        #expect(decoder.currentImage() == nil)
        #expect(try decoder.append(data[700..<2050]))  // two sub-blocks of frame 0
        let partial = try #require(decoder.currentImage())
        #expect(partial.flags == .incremental)
        #expect(partial.size == complete.size)
        #expect(partial.pixels.color(x: 0, y: 0) == complete.pixels.color(x: 0, y: 0))
        #expect(partial.pixels.color(x: 63, y: 47).alpha == 0)
        #expect(try decoder.append(data[2050..<2200]))  // frames 0 and 1 complete
        #expect(try #require(decoder.currentImage()).pixels == complete.frames[1].pixels)
        #expect(try !decoder.append(data[2200..<2300]))  // inside frame 2: frames 0 and 1 still
        let cut = try GIFCoder().decode(data.prefix(2300), options: .init())
        #expect(try cut.frames.map(\.pixels) == Array(complete.frames.prefix(2).map(\.pixels)))
        #expect(cut.flags == .incomplete)
        #expect(try decoder.append(data[2300...]))
        #expect(try decoder.finish().frames.map(\.pixels) == complete.frames.map(\.pixels))
    }
}

import Foundation
import Testing
import WICore
import WICoderGIF
import WITestSupport

/// Real GIFs from other libraries' test folders (Tests/Fixtures/gif, sources in SOURCES.md).
///
/// Frame hashes: SHA-256 of the straight RGBA8 frame. Where noted they equal `../shared/tools/refdecode.py` (Pillow):
/// for these files Pillow's compositing and the browser rules agree (no disposal to background over a visible
/// area, canvas fully covered by the first frame); the others are derived by hand.
@Suite struct GIFCorpusTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        var file: String
        var size: PixelSize
        var durations: [Double]
        var loopCount: Int
        var hashPrefixes: [String]
        var testDescription: String { file }
    }

    static let expectations: [Expectation] = [
        // refdecode.py frame hashes (sha256 prefixes) for all of them.
        .init(
            file: "gif/animated-red-blue.gif", size: .init(width: 64, height: 48), durations: [0.1, 0.2, 0.3, 0.4],
            loopCount: 3, hashPrefixes: ["35759e5d", "9da7aa33", "b083df8f", "facbaa00"]),
        .init(
            file: "gif/any-disposal.gif", size: .init(width: 32, height: 32), durations: [1, 1, 1, 1, 1], loopCount: 0,
            hashPrefixes: ["a5b22624", "a9af3925", "84ec698c", "3f761080", "c3c5fef8"]),
        .init(
            file: "gif/interlaced-32.gif", size: .init(width: 32, height: 32), durations: [0], loopCount: 0,
            hashPrefixes: ["62863eb5"]),
        .init(
            file: "formats/sample.gif", size: .init(width: 50, height: 50), durations: [0.12, 0.12, 0.12, 0.12, 0.12],
            loopCount: 0, hashPrefixes: ["87d78867", "999f11dd", "986b2506", "86eddeb4", "2ca7f629"]),
        // image-gif: delays 0 and 1/100 s show 100 ms, 10000/100 s shows 100 s; frame 1 of anim-gr has a local palette.
        .init(
            file: "gif/beacon.gif", size: .init(width: 6, height: 6), durations: [0.1, 0.1], loopCount: 0,
            hashPrefixes: ["72d724e2", "74a4cf92"]),
        .init(
            file: "gif/anim-gr.gif", size: .init(width: 100, height: 50), durations: [0.1, 100], loopCount: 0,
            hashPrefixes: ["42f918be", "d9ff8ebe"]),
        // No NETSCAPE2.0 extension: plays once.
        .init(
            file: "gif/TestLoopCount.gif", size: .init(width: 72, height: 48), durations: [0.5, 0.5], loopCount: 1,
            hashPrefixes: ["5319b14c", "9da91ed9"]),
    ]

    @Test(arguments: expectations)
    func decodesFrameByFrame(expected: Expectation) throws {
        let image = try GIFCoder().decode(Fixtures.data(expected.file), options: .init())
        #expect(image.size == expected.size)
        #expect(image.durations == expected.durations)
        #expect(image.loopCount == expected.loopCount)
        #expect(try image.frames.map { String(SHA256.hex($0.pixels.packedBytes()).prefix(8)) } == expected.hashPrefixes)
        #expect(image.flags == [])
    }

    @Test func wuffsArtificialFiles() throws {
        func letters(_ file: String) throws -> [String] {
            try GIFCoder().decode(Fixtures.data("gif/\(file)"), options: .init()).frames.map {
                Pixels.letters($0.pixels)
            }
        }
        // A 1x1 frame at (3,2), interlaced, on a 5x5 screen; the rest of the canvas stays transparent.
        #expect(try letters("small-frame-interlaced.gif") == ["...../...../...B./...../....."])
        // Frame 1 has no palette of its own and the file none at all after frame 0's local one: indices draw nothing.
        #expect(try letters("empty-palette.gif") == ["B", "B"])
        let loops = try GIFCoder().decode(Fixtures.data("gif/multiple-loop-counts.gif"), options: .init())
        #expect(loops.loopCount == 51)  // the first NETSCAPE2.0 extension (50) wins: 50 repetitions after the first
        #expect(loops.frameCount == 4)
        let bounds = try GIFCoder().decode(Fixtures.data("gif/frame-out-of-bounds.gif"), options: .init())
        #expect(bounds.size == PixelSize(width: 2, height: 2) && bounds.frameCount == 4)
        #expect(bounds.pixels.color(x: 0, y: 0).alpha == 0)  // frame 0 is 3x1 at (1,0): (0,0) never drawn
        #expect(bounds.pixels.color(x: 1, y: 0).alpha == 255)
    }

    @Test(arguments: ["no-frames.gif", "zero-width-frame.gif", "pixel-data-not-enough.gif"])
    func filesWithoutADecodableFrameAreTypedErrors(file: String) {
        let error = #expect(throws: ImageError.self) {
            try GIFCoder().decode(Fixtures.data("gif/\(file)"), options: .init())
        }
        #expect(error?.code == .badImageData)
    }

    @Test func disposalToBackgroundClearsToTransparent() throws {
        // 100x100: frame 0 is 50x50 at (0,0), disposal 2; frame 1 is 50x50 at (50,50).
        let image = try GIFCoder().decode(Fixtures.data("gif/issue_1455_undersized.gif"), options: .init())
        #expect(image.frameCount == 2)
        #expect(try image.frames[0].pixels.color(x: 10, y: 10).alpha == 255)
        #expect(try image.frames[0].pixels.color(x: 60, y: 60).alpha == 0)
        #expect(try image.frames[1].pixels.color(x: 10, y: 10).alpha == 0)  // cleared, not Pillow's background colour
    }

    @Test func framesPastTheScreenAreClipped() throws {
        // 32x32 screen, one 16x16 frame at (24,24).
        let image = try GIFCoder().decode(Fixtures.data("gif/oob.gif"), options: .init())
        #expect(image.size == PixelSize(width: 32, height: 32))
        #expect(image.pixels.color(x: 23, y: 23).alpha == 0)
        let drawn = (24..<32).flatMap { y in (24..<32).map { x in image.pixels.color(x: x, y: y).alpha } }
        #expect(drawn.contains(255))
    }
}

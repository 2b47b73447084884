import Foundation
import Testing
import WICore
import WICoderGIF
import WITestSupport

/// Synthetic GIFs (GIFBuilder) whose frames follow by hand from the browser rules: transparent canvas, disposal
/// 2 clears to transparent, 3 restores the canvas as before the frame, transparent indices leave the canvas.
@Suite struct GIFDisposalTests {
    /// 4x3, palette R G B W. Expected frames derived by hand in the comments.
    static let everyDisposal: Data = {
        var gif = GIFBuilder(width: 4, height: 3, netscapeLoops: 0)
        // 0: fill red; disposal 1 (keep).
        gif.frames.append(.init(width: 4, height: 3, indices: .init(repeating: 0, count: 12), control: (10, 1, nil)))
        // 1: green 2x2 at (1,1); disposal 2: its rectangle becomes transparent afterwards.
        gif.frames.append(.init(x: 1, y: 1, width: 2, height: 2, indices: [1, 1, 1, 1], control: (5, 2, nil)))
        // 2: blue 2x2 at (0,0) with index 3 transparent at (1,0); disposal 3: the canvas goes back to before it.
        gif.frames.append(.init(width: 2, height: 2, indices: [2, 3, 2, 2], control: (0, 3, 3)))
        // 3: white 1x1 at (3,2), no graphic control extension (still a frame, 100 ms).
        gif.frames.append(.init(x: 3, y: 2, width: 1, height: 1, indices: [3]))
        // 4: green 2x1 at (2,0); disposal 0, delay 10 ms (shows 100 ms).
        gif.frames.append(.init(x: 2, y: 0, width: 2, height: 1, indices: [1, 1], control: (1, 0, nil)))
        return gif.build()
    }()

    static let expected = ["RRRR/RRRR/RRRR", "RRRR/RGGR/RGGR", "BRRR/BB.R/R..R", "RRRR/R..R/R..W", "RRGG/R..R/R..W"]

    @Test func everyDisposalFrameByFrame() throws {
        let image = try GIFCoder().decode(Self.everyDisposal, options: .init())
        #expect(image.format == .gif)
        #expect(image.size == PixelSize(width: 4, height: 3))
        #expect(try image.frames.map { Pixels.letters($0.pixels) } == Self.expected)
        #expect(image.durations == [0.1, 0.05, 0.1, 0.1, 0.1])
        #expect(image.loopCount == 0)
        #expect(image.flags == [])
    }

    @Test func randomAccessEqualsSequentialPlayback() throws {
        let decoder = try GIFCoder().makeAnimatedDecoder(Self.everyDisposal, options: .init())
        #expect(decoder.frameCount == 5)
        #expect(decoder.canvasSize == PixelSize(width: 4, height: 3))
        for index in [4, 2, 0, 3, 1, 4, 4, 2] {
            #expect(Pixels.letters(try decoder.frame(at: index)) == Self.expected[index], "frame \(index)")
        }
    }

    @Test func framesOutsideTheScreenAreClippedAndZeroSizeFramesSkipped() throws {
        var gif = GIFBuilder(width: 3, height: 2)
        gif.frames.append(.init(x: 1, y: 1, width: 3, height: 2, indices: [0, 1, 2, 3, 3, 3]))  // half outside
        gif.frames.append(.init(x: 0, y: 0, width: 0, height: 5, indices: []))  // zero width
        gif.frames.append(.init(x: 5, y: 5, width: 1, height: 1, indices: [2]))  // fully outside
        gif.frames.append(.init(x: 0, y: 0, width: 1, height: 1, indices: [2], control: (7, 1, nil)))
        let image = try GIFCoder().decode(gif.build(), options: .init())
        #expect(try image.frames.map { Pixels.letters($0.pixels) } == [".../.RG", ".../.RG", "B../.RG"])
        #expect(image.durations == [0.1, 0.1, 0.07])
        #expect(image.loopCount == 1)  // no NETSCAPE2.0: plays once
    }

    @Test func interlacedFramesAreDeinterlaced() throws {
        // 2x9 frame, row r has colour r % 4: interlaced storage order is rows 0, 8, 4, 2, 6, 1, 3, 5, 7.
        var gif = GIFBuilder(width: 2, height: 9)
        let indices = (0..<9).flatMap { row in [UInt8(row % 4), UInt8(row % 4)] }
        gif.frames.append(.init(width: 2, height: 9, indices: indices, interlaced: true))
        #expect(GIFBuilder.interlacedOrder(9) == [0, 8, 4, 2, 6, 1, 3, 5, 7])
        let image = try GIFCoder().decode(gif.build(), options: .init())
        #expect(Pixels.letters(image.pixels) == "RR/GG/BB/WW/RR/GG/BB/WW/RR")
        #expect(image.frameCount == 1 && image.loopCount == 0)
    }

    @Test func localPalettesWinOverTheGlobalOne() throws {
        var gif = GIFBuilder(width: 2, height: 1, netscapeLoops: 2)
        gif.frames.append(.init(width: 2, height: 1, indices: [0, 1]))
        gif.frames.append(.init(width: 2, height: 1, indices: [0, 1], localPalette: [(255, 255, 255), (0, 0, 0)]))
        gif.frames.append(.init(width: 2, height: 1, indices: [3, 2]))
        let image = try GIFCoder().decode(gif.build(), options: .init())
        #expect(try image.frames.map { Pixels.letters($0.pixels) } == ["RG", "WK", "WB"])
        #expect(image.loopCount == 3)  // NETSCAPE 2 = two repetitions after the first play
    }

    @Test func noGlobalPaletteAndNoLocalOneIsTransparent() throws {
        var gif = GIFBuilder(width: 2, height: 1, globalPalette: nil)
        gif.frames.append(.init(width: 2, height: 1, indices: [0, 1]))
        let image = try GIFCoder().decode(gif.build(), options: .init())
        #expect(Pixels.letters(image.pixels) == "..")
    }
}

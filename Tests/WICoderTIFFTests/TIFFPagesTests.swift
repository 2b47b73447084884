import Foundation
import Testing
import WICore
import WICoderTIFF
import WITestSupport

/// Multi-page files: the first page unless pages are asked for, pages as frames, and the pixel limit over pages.
@Suite struct TIFFPagesTests {
    @Test func firstPageUnlessAllPagesAreAsked() throws {
        let data = tiffData("emptyexiftag-3pages.tif")
        #expect(try TIFFCoder().decode(data, options: .init()).frameCount == 1)
        let all = try TIFFCoder(decodesAllPages: true).decode(data, options: .init())
        #expect(all.frameCount == 3)
        #expect(all.durations == [0.1, 0.1, 0.1])
        #expect(all.loopCount == 0)
        #expect(try TIFFCoder(decodesAllPages: true).decode(data, options: .init(firstFrameOnly: true)).frameCount == 1)
        for (index, frame) in try all.frames.enumerated() {
            #expect(frame.pixels == (try TIFFCoder().decodePage(index, of: data, options: .init()).pixels))
        }
    }

    /// Every page counts once, however the directory chain loops: back to the first page (Pillow's
    /// multipage_multiple_frame_loop.tiff), to itself (multipage_single_frame_loop.tiff), or from the third page
    /// back to the second (gen-ifd-loop-to-second.tif, crafted by make-tiff-crafted-fixtures.py); Pillow's n_frames
    /// agree (tiff-reference.tsv). A reader following the offsets alone would never end.
    @Test(arguments: [
        ("pillow-multipage.tiff", 3), ("pillow-multipage_multiple_frame_loop.tiff", 2),
        ("pillow-multipage_single_frame_loop.tiff", 1), ("gen-ifd-loop-to-second.tif", 3),
    ])
    func everyPageCountsOnceWhateverTheChain(file: String, pages: Int) throws {
        let data = tiffData(file)
        #expect(try TIFFCoder().makeAnimatedDecoder(data, options: .init()).frameCount == pages)
        let all = try TIFFCoder(decodesAllPages: true).decode(data, options: .init())
        #expect(all.frameCount == pages)
        #expect(all.flags == [])
        #expect(throws: ImageError.self) { try TIFFCoder().decodePage(pages, of: data, options: .init()) }
        let decoder = try TIFFCoder().makeAnimatedDecoder(data, options: .init())
        for index in (0..<pages).reversed() {
            #expect(try decoder.frame(at: index) == all.frames[index].pixels)
        }
    }

    @Test func pagesOfOtherSizesSitTopLeftOnTheFirstPagesCanvas() throws {
        let data = tiffData("gen-pages-sizes.tif")
        let image = try TIFFCoder(decodesAllPages: true).decode(data, options: .init())
        #expect(image.frameCount == 3)
        #expect(image.size == PixelSize(width: 20, height: 10))
        let second = try image.frames[1].pixels
        #expect(second.size == PixelSize(width: 20, height: 10))
        #expect(second.color(x: 0, y: 0) == RGBAColor(red: 200, green: 0, blue: 0, alpha: 255))
        #expect(second.color(x: 11, y: 9) == RGBAColor(red: 200, green: 220, blue: 135, alpha: 255))
        #expect(second.color(x: 12, y: 0) == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
        #expect(try TIFFCoder().decodePage(1, of: data, options: .init()).size == PixelSize(width: 12, height: 16))
        #expect(throws: ImageError.self) { try TIFFCoder().decodePage(3, of: data, options: .init()) }
    }

    @Test func animatedDecoderGivesPagesOnDemand() throws {
        let data = tiffData("gen-pages-sizes.tif")
        let decoder = try TIFFCoder().makeAnimatedDecoder(data, options: .init())
        #expect(decoder.frameCount == 3)
        #expect(decoder.canvasSize == PixelSize(width: 20, height: 10))
        let all = try TIFFCoder(decodesAllPages: true).decode(data, options: .init())
        // Out of order, and twice: the handle's current page moves back and forth.
        for index in [2, 0, 1, 2] {
            #expect(try decoder.frame(at: index) == all.frames[index].pixels)
        }
        #expect(throws: ImageError.self) { try decoder.frame(at: 3) }
    }

    @Test func pixelLimitCountsEveryDecodedPage() throws {
        let data = tiffData("emptyexiftag-3pages.tif")  // three 6x4 pages
        let limited = DecodeOptions(pixelLimit: 60)
        #expect(try TIFFCoder().decode(data, options: limited).size == PixelSize(width: 6, height: 4))
        do {
            _ = try TIFFCoder(decodesAllPages: true).decode(data, options: limited)
            Issue.record("three pages of 24 pixels passed a limit of 60")
        } catch {
            #expect(error.code == .pixelLimitExceeded)
        }
        #expect(throws: ImageError.self) { try TIFFCoder().makeAnimatedDecoder(data, options: limited) }
        do {
            _ = try TIFFCoder().decode(tiffData("a33.tif"), options: .init(pixelLimit: 1_000_000))
            Issue.record("2464x3444 passed a limit of 1 MP")
        } catch {
            #expect(error.code == .pixelLimitExceeded)
        }
    }
}

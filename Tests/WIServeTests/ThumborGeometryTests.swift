import Testing
@testable import WIServe
@testable import WIServeCore
import WICore

/// Crop windows, scaled sizes and canvases for a 400x200 source, exactly.
@Suite struct ThumborGeometryTests {
    let source = PixelSize(width: 400, height: 200)

    func geometry(_ path: String, fill: Bool = false) throws -> ThumborGeometry {
        ThumborGeometry.make(
            for: try ThumborRequest.parse(path: "/unsafe/\(path)a.example/b.png"), source: source, fill: fill)
    }

    func window(_ g: ThumborGeometry) -> [Int] { [g.window.x, g.window.y, g.window.width, g.window.height] }

    @Test func fillCropsByTheAlignment() throws {
        #expect(window(try geometry("200x200/")) == [100, 0, 200, 200])
        #expect(window(try geometry("200x200/left/")) == [0, 0, 200, 200])
        #expect(window(try geometry("200x200/right/")) == [200, 0, 200, 200])
        #expect(window(try geometry("400x100/top/")) == [0, 0, 400, 100])
        #expect(window(try geometry("400x100/bottom/")) == [0, 100, 400, 100])
        #expect(window(try geometry("400x100/")) == [0, 50, 400, 100])
        #expect(try geometry("100x100/").scaled == PixelSize(width: 100, height: 100))
        #expect(window(try geometry("100x100/")) == [100, 0, 200, 200])
    }

    @Test func freeSideKeepsTheAspectRatio() throws {
        #expect(try geometry("100x0/").scaled == PixelSize(width: 100, height: 50))
        #expect(try geometry("x50/").scaled == PixelSize(width: 100, height: 50))
        #expect(try geometry("0x0/").scaled == source)
        #expect(try geometry("origx100/").scaled == PixelSize(width: 400, height: 100))
    }

    @Test func fitInFitsInsideAndNeverEnlarges() throws {
        #expect(try geometry("fit-in/300x300/").scaled == PixelSize(width: 300, height: 150))
        #expect(try geometry("fit-in/300x300/").canvas == nil)
        #expect(try geometry("fit-in/300x300/", fill: true).canvas == PixelSize(width: 300, height: 300))
        // thumbor keeps a source that fits the box (upscale() enlarges it later, to the box kept here).
        #expect(try geometry("fit-in/800x800/").scaled == source)
        #expect(try geometry("fit-in/800x800/").box == PixelSize(width: 800, height: 800))
        #expect(try geometry("800x800/filters:no_upscale()/").scaled == PixelSize(width: 400, height: 200))
        // full-fit-in covers the box; adaptive turns the box to the source's orientation.
        #expect(try geometry("full-fit-in/100x100/").scaled == PixelSize(width: 200, height: 100))
        #expect(try geometry("full-fit-in/100x100/", fill: true).canvas == PixelSize(width: 200, height: 100))
        #expect(try geometry("adaptive-fit-in/100x300/").scaled == PixelSize(width: 200, height: 100))
        #expect(try geometry("adaptive-fit-in/100x300/").box == PixelSize(width: 300, height: 100))
        #expect(
            ThumborFilters.Upscale.upscaled(source, box: PixelSize(width: 800, height: 800))
                == PixelSize(width: 800, height: 400))
        #expect(ThumborFilters.Upscale.upscaled(source, box: PixelSize(width: 800, height: 0)) == nil)
    }

    @Test func manualCropComesFirst() throws {
        let g = try geometry("10x20:110x220/50x50/")
        // The box is clamped to the image (220 -> 200), then the 1:1 fill takes the middle of the 100x180 window.
        #expect(window(g) == [10, 60, 100, 100])
        #expect(g.scaled == PixelSize(width: 50, height: 50))
        // A crop that leaves nothing of the image is ignored, as thumbor ignores it.
        #expect(window(try geometry("500x10:600x20/")) == [0, 0, 400, 200])
    }
}

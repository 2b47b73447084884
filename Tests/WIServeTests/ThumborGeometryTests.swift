import Testing
@testable import WIServe
import WICore

/// Crop windows, scaled sizes and canvases for a 400x200 source, exactly.
@Suite struct ThumborGeometryTests {
    let source = PixelSize(width: 400, height: 200)

    func geometry(_ path: String, noUpscale: Bool = false, fill: Bool = false) throws -> ThumborGeometry {
        try ThumborGeometry.make(for: ThumborRequest.parse(path: "/unsafe/\(path)a.example/b.png"), source: source,
                                 noUpscale: noUpscale, fill: fill)
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

    @Test func fitInFitsInsideAndUpscalesUnlessTold() throws {
        #expect(try geometry("fit-in/300x300/").scaled == PixelSize(width: 300, height: 150))
        #expect(try geometry("fit-in/300x300/").canvas == nil)
        #expect(try geometry("fit-in/300x300/", fill: true).canvas == PixelSize(width: 300, height: 300))
        #expect(try geometry("fit-in/800x800/").scaled == PixelSize(width: 800, height: 400))
        #expect(try geometry("fit-in/800x800/", noUpscale: true).scaled == source)
        #expect(try geometry("800x800/", noUpscale: true).scaled == PixelSize(width: 400, height: 200))
    }

    @Test func manualCropComesFirst() throws {
        let g = try geometry("10x20:110x220/50x50/")
        // The box is clamped to the image (220 -> 200), then the 1:1 fill takes the middle of the 100x180 window.
        #expect(window(g) == [10, 60, 100, 100])
        #expect(g.scaled == PixelSize(width: 50, height: 50))
        #expect(throws: ImageError.self) { try geometry("500x10:600x20/") }
    }
}

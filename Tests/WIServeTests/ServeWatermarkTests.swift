import Foundation
import Testing
import WebImage
import WITestSupport
@testable import WIServe

/// `watermark()` and `background_color()` against thumbor 7.8's own (its filters, PIL engine and `_alpha` /
/// `_composite` extensions, run by Tests/Fixtures/serve-watermark/make_reference.py): every byte equal for
/// placement, transparency, tiling and backgrounds; where the watermark is resized (Pillow's Lanczos against
/// WITransform's area average), its size and place.
@Suite struct ServeWatermarkTests {
    static func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> [Int]) throws -> Image {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { bytes += pixel(x, y).map { UInt8(($0 % 256 + 256) % 256) } }
        }
        return Image(pixels: try PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes))
    }

    /// The three images of make_reference.py.
    static func base() throws -> Image {
        try image(40, 30) { x, y in
            [x * 29 + y * 7, x * x + y * 5, 200 - x * 3 + y * y, (x + 2 * y) % 13 == 0 ? 0 : (x + y) % 7 != 0 ? 255 : 90]
        }
    }

    static func marks() throws -> [String: Image] {
        ["mark.png": try image(7, 5) { x, y in [x * 50, y * 60, 180, x * 40 + y * 30] },
         "small.png": try image(3, 2) { x, y in [255, 255 - x * 80, y * 200, 200] }]
    }

    static func watermark(_ text: String) throws -> ThumborWatermark {
        let filters = try ThumborFilter.parseList(Substring(text))
        guard case .watermark(let mark) = filters.first else { throw ImageError(.invalidArgument, "not a watermark") }
        return mark
    }

    @Test func matchesThumbor() throws {
        let text = try String(contentsOf: Fixtures.url("serve-watermark/thumbor-watermark-reference.tsv"), encoding: .utf8)
        let rows = ServeBlurTests.rows(text)
        #expect(rows.count == 18)
        let base = try Self.base(), marks = try Self.marks()
        var exact = 0, resized: [(PixelSize, Int, Int)] = [], backgrounds = 0
        for fields in rows {
            if fields[0].hasPrefix("background_color") {
                // The same merge over a canvas of the colour.
                guard case .backgroundColor(let color) = try ThumborFilter.parseList(fields[0]).first else {
                    Issue.record("\(fields[0]) is not a background_color() filter")
                    continue
                }
                let output = try ThumborComposite.over(color, image: base).pixels.packedBytes()
                #expect(output == (try ServeBlurTests.bytes(hex: fields[1])), "\(fields[0])")
                backgrounds += 1
                continue
            }
            let mark = try Self.watermark(String(fields[0]))
            let name = try #require(mark.url.split(separator: "/").last.map(String.init))
            let drawing = try WatermarkDrawing(mark, image: try #require(marks[name]), pixelLimit: 1 << 20)
            let output = try drawing.apply(to: base).pixels.packedBytes()
            let expected = try ServeBlurTests.bytes(hex: fields[1])
            #expect(output.count == expected.count)
            if mark.widthRatio == nil && mark.heightRatio == nil {
                let differing = zip(output, expected).filter { $0 != $1 }.count
                #expect(differing == 0, "\(fields[0]): \(differing) bytes differ from thumbor's")
                exact += 1
            } else {
                // Resized: thumbor's size and place exactly (every byte outside the watermark equal), the pixels
                // under it from another resampler.
                let size = try drawing.resized(for: base.size).size
                let (left, top) = try #require(WatermarkDrawing.offsets(image: base.size, mark: size, x: mark.x, y: mark.y).first)
                var outside = 0
                for (index, pair) in zip(output, expected).enumerated() where pair.0 != pair.1 {
                    let x = index / 4 % base.width, y = index / 4 / base.width
                    if !(left..<left + size.width).contains(x) || !(top..<top + size.height).contains(y) { outside += 1 }
                }
                #expect(outside == 0, "\(fields[0]): \(outside) bytes outside the watermark differ")
                resized.append((size, left, top))
            }
        }
        #expect(exact == 13 && backgrounds == 3)
        // 50% of 40 wide: 20 x round(5 x 20 / 7) = 20 x 14 at the top left; 40% of 30 high: round(7 x 12 / 5) = 17 x 12
        // at the bottom right.
        #expect(resized.map(\.0) == [PixelSize(width: 20, height: 14), PixelSize(width: 17, height: 12)])
        #expect(resized.map(\.1) == [0, 23] && resized.map(\.2) == [0, 18])
    }

    @Test func aResizedWatermarkStaysWithinThePixelLimit() throws {
        // 1 x 100 fitted to the full width of a 100-wide image: 100 x 10,000 pixels, over a limit of 500,000.
        let tall = try Self.image(1, 100) { _, _ in [0, 0, 0, 255] }
        let mark = try Self.watermark("watermark(t.png,0,0,0,100)")
        let drawing = try WatermarkDrawing(mark, image: tall, pixelLimit: 500_000)
        let base = try Self.image(100, 10) { _, _ in [255, 255, 255, 255] }
        let error = #expect(throws: ImageError.self) { try drawing.apply(to: base) }
        #expect(error?.code == .pixelLimitExceeded)
        #expect(error?.message == "the watermark would be 100x10000, over the pixel limit of 500000 pixels")
    }

    @Test func everyFrameIsMarkedAndKeepsItsDuration() throws {
        let white = try PixelBuffer(width: 4, height: 2, format: .rgba8, bytes: Array(repeating: 255, count: 32))
        let animation = Image(frames: [ImageFrame(pixels: white, duration: 0.1), ImageFrame(pixels: white, duration: 0.3)],
                              format: .gif)
        let dot = try Self.image(1, 1) { _, _ in [0, 0, 0, 255] }
        let output = try WatermarkDrawing(try Self.watermark("watermark(d.png,-0,0,0)"), image: dot, pixelLimit: 100)
            .apply(to: animation)
        for index in 0..<2 {
            let frame = try output.frame(at: index)
            #expect(frame.pixels.color(x: 3, y: 0) == RGBAColor(red: 0, green: 0, blue: 0))
            #expect(frame.pixels.color(x: 2, y: 0) == .white && frame.pixels.color(x: 3, y: 1) == .white)
        }
        #expect(try output.frame(at: 1).duration == 0.3)
    }
}

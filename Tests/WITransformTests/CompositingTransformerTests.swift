import Foundation
import Testing
import WICore
import WITestSupport
@testable import WITransform

/// `OverlayTransformer` and `CanvasTransformer` against thumbor 7.8's own `watermark()`, `background_color()` and
/// `fill()` (its filters, PIL engine and `_alpha` / `_composite` extensions, run by
/// Tests/Fixtures/serve-watermark/make_reference.py): every byte equal for placement, transparency, tiling and
/// backgrounds; where the overlay is fitted (Pillow's Lanczos against WITransform's area average), its size and place.
@Suite struct CompositingTransformerTests {
    static func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> [Int]) throws -> Image {
        try ThumborReference.image(width, height, pixel)
    }

    /// The three images of make_reference.py.
    static func base() throws -> Image {
        try image(40, 30) { x, y in
            [
                x * 29 + y * 7, x * x + y * 5, 200 - x * 3 + y * y,
                (x + 2 * y) % 13 == 0 ? 0 : (x + y) % 7 != 0 ? 255 : 90,
            ]
        }
    }

    static func marks() throws -> [String: Image] {
        [
            "mark.png": try image(7, 5) { x, y in [x * 50, y * 60, 180, x * 40 + y * 30] },
            "small.png": try image(3, 2) { x, y in [255, 255 - x * 80, y * 200, 200] },
        ]
    }

    /// A reference row's filter as thumbor spells it: `watermark(NAME,X,Y,ALPHA[,W[,H]])` or `background_color(HEX)`.
    static func arguments(_ filter: Substring) throws -> (name: Substring, [Substring]) {
        let open = try #require(filter.firstIndex(of: "("))
        let inner = filter[filter.index(after: open)..<filter.index(before: filter.endIndex)]
        return (filter[..<open], inner.split(separator: ",", omittingEmptySubsequences: false))
    }

    static func position(_ text: Substring) throws -> OverlayTransformer.Position {
        if text == "center" { return .center }
        if text == "repeat" { return .tiled }
        var digits = text
        let fromEnd = digits.first == "-"
        if fromEnd { digits = digits.dropFirst() }
        if digits.last == "p" { return .percent(try #require(Int(digits.dropLast())), fromEnd: fromEnd) }
        return .pixels(try #require(Int(digits)), fromEnd: fromEnd)
    }

    static func overlay(_ filter: Substring, marks: [String: Image]) throws -> OverlayTransformer {
        let (_, arguments) = try Self.arguments(filter)
        func percent(_ index: Int) -> Int? {
            guard arguments.count > index, let value = Int(arguments[index]), value > 0 else { return nil }
            return value
        }
        return try OverlayTransformer(
            try #require(marks[String(arguments[0])]), identifier: String(arguments[0]),
            x: try position(arguments[1]), y: try position(arguments[2]),
            transparency: try #require(Int(arguments[3])),
            maximumWidthPercent: percent(4), maximumHeightPercent: percent(5))
    }

    @Test func matchesThumbor() throws {
        let text = try String(
            contentsOf: Fixtures.url("serve-watermark/thumbor-watermark-reference.tsv"), encoding: .utf8)
        let rows = ThumborReference.rows(text)
        #expect(rows.count == 18)
        let base = try Self.base()
        let marks = try Self.marks()
        var exact = 0
        var fitted: [(PixelSize, Int, Int)] = []
        var backgrounds = 0
        for fields in rows {
            let (name, arguments) = try Self.arguments(fields[0])
            if name == "background_color" {
                let color = try #require(RGBAColor(parsing: String(arguments[0])))
                let output = try CanvasTransformer(color: color, blending: .composite).transform(base).pixels
                #expect(output.packedBytes() == (try ThumborReference.bytes(hex: fields[1])), "\(fields[0])")
                backgrounds += 1
                continue
            }
            let overlay = try Self.overlay(fields[0], marks: marks)
            let output = try overlay.transform(base).pixels.packedBytes()
            let expected = try ThumborReference.bytes(hex: fields[1])
            #expect(output.count == expected.count)
            if overlay.maximumWidthPercent == nil && overlay.maximumHeightPercent == nil {
                let differing = zip(output, expected).filter { $0 != $1 }.count
                #expect(differing == 0, "\(fields[0]): \(differing) bytes differ from thumbor's")
                exact += 1
            } else {
                // Fitted: thumbor's size and place exactly (every byte outside the overlay equal), the pixels under
                // it from another resampler.
                let size = try overlay.fitted(to: base.size, pixelLimit: 1 << 20).size
                let (left, top) = try #require(
                    OverlayTransformer.offsets(
                        image: base.size, overlay: size,
                        x: overlay.x, y: overlay.y
                    ).first)
                var outside = 0
                for (index, pair) in zip(output, expected).enumerated() where pair.0 != pair.1 {
                    let x = index / 4 % base.width
                    let y = index / 4 / base.width
                    if !(left..<left + size.width).contains(x) || !(top..<top + size.height).contains(y) {
                        outside += 1
                    }
                }
                #expect(outside == 0, "\(fields[0]): \(outside) bytes outside the overlay differ")
                fitted.append((size, left, top))
            }
        }
        #expect(exact == 13 && backgrounds == 3)
        // 50% of 40 wide: 20 x round(5 x 20 / 7) = 20 x 14 at the top left; 40% of 30 high: round(7 x 12 / 5) = 17 x 12
        // at the bottom right.
        #expect(fitted.map(\.0) == [PixelSize(width: 20, height: 14), PixelSize(width: 17, height: 12)])
        #expect(fitted.map(\.1) == [0, 23] && fitted.map(\.2) == [0, 18])
    }

    @Test func aFittedOverlayStaysWithinThePixelLimit() throws {
        // 1 x 100 fitted to the full width of a 100-wide image: 100 x 10,000 pixels, over a limit of 500,000.
        let tall = try Self.image(1, 100) { _, _ in [0, 0, 0, 255] }
        let overlay = try OverlayTransformer(
            tall, identifier: "t", x: .pixels(0, fromEnd: false),
            y: .pixels(0, fromEnd: false), maximumWidthPercent: 100)
        let white = try PixelBuffer(width: 100, height: 10, format: .rgba8, bytes: Array(repeating: 255, count: 4000))
        let base = Image(frames: [ImageFrame(pixels: white)], decodeOptions: DecodeOptions(pixelLimit: 500_000))
        let error = #expect(throws: ImageError.self) { try overlay.transform(base) }
        #expect(error?.code == .pixelLimitExceeded)
        #expect(error?.message == "the overlay would be 100x10000, over the pixel limit of 500000 pixels")
    }

    @Test func everyFrameIsMarkedAndKeepsItsDuration() throws {
        let white = try PixelBuffer(width: 4, height: 2, format: .rgba8, bytes: Array(repeating: 255, count: 32))
        let animation = Image(
            frames: [ImageFrame(pixels: white, duration: 0.1), ImageFrame(pixels: white, duration: 0.3)],
            format: .gif)
        let dot = try Self.image(1, 1) { _, _ in [0, 0, 0, 255] }
        let output = try OverlayTransformer(
            dot, identifier: "d", x: .pixels(0, fromEnd: true), y: .pixels(0, fromEnd: false)
        )
        .transform(animation)
        for index in 0..<2 {
            let frame = try output.frame(at: index)
            #expect(frame.pixels.color(x: 3, y: 0) == RGBAColor(red: 0, green: 0, blue: 0))
            #expect(frame.pixels.color(x: 2, y: 0) == .white && frame.pixels.color(x: 3, y: 1) == .white)
        }
        #expect(try output.frame(at: 1).duration == 0.3)
        #expect(output.format == .gif && output.frameCount == 2)
    }

    /// A canvas larger than the frame pads it around the centre, a smaller one crops it (the origin rounded toward
    /// zero, as thumbor's Python `int()`); the colour shows through
    /// the frame's transparency (source-over, rounded): 50% red over white is (255, 128, 128).
    @Test func canvasPadsCropsAndBlends() throws {
        let half = try Self.image(2, 2) { x, _ in x == 0 ? [255, 0, 0, 128] : [0, 0, 255, 255] }
        let padded = try CanvasTransformer(size: PixelSize(width: 4, height: 3), color: .white).transform(half).pixels
        #expect(padded.size == PixelSize(width: 4, height: 3))
        #expect(padded.color(x: 0, y: 0) == .white && padded.color(x: 3, y: 2) == .white)
        #expect(padded.color(x: 1, y: 0) == RGBAColor(red: 255, green: 127, blue: 127))
        #expect(padded.color(x: 2, y: 1) == RGBAColor(red: 0, green: 0, blue: 255))
        let cropped = try CanvasTransformer(size: PixelSize(width: 1, height: 1), color: .black).transform(half).pixels
        #expect(cropped.size == PixelSize(width: 1, height: 1))
        #expect(cropped.color(x: 0, y: 0) == RGBAColor(red: 128, green: 0, blue: 0))  // origin (1 - 2) / 2 = 0
        let clear = try CanvasTransformer(color: .clear).transform(half).pixels
        #expect(clear.color(x: 0, y: 0) == RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
    }

    @Test func keysAndArguments() throws {
        #expect(
            try CanvasTransformer(size: PixelSize(width: 512, height: 256), color: .white).key
                == "Canvas(512x256,#ffffffff,over)")
        #expect(
            try CanvasTransformer.background(.clear, blending: .composite).key == "Canvas(frame,#00000000,composite)")
        let dot = try Self.image(1, 1) { _, _ in [0, 0, 0, 255] }
        #expect(
            try OverlayTransformer.overlay(
                dot, identifier: "logo.png", x: .pixels(10, fromEnd: true), y: .center,
                transparency: 50, maximumWidthPercent: 25
            ).key
                == "Overlay(logo.png,-10,center,50,25,none)")
        let canvas = #expect(throws: ImageError.self) {
            try CanvasTransformer(size: PixelSize(width: 0, height: 5), color: .white)
        }
        #expect(canvas?.code == .invalidArgument)
        for bad in [
            (101, nil, OverlayTransformer.Position.center), (0, 0, .center), (0, nil, .pixels(-1, fromEnd: false)),
        ] {
            let error = #expect(throws: ImageError.self) {
                try OverlayTransformer(
                    dot, identifier: "d", x: bad.2, y: .center, transparency: bad.0,
                    maximumWidthPercent: bad.1)
            }
            #expect(error?.code == .invalidArgument)
        }
    }
}

/// The compositing loops stop inside a frame when their pool job is cancelled (the frame loop around them checks
/// too, so these call them directly): the canvas fill, the merge, a frame drawn on a canvas (`CanvasTransformer`,
/// `PaddingTransformer`) and the overlay's alpha pass.
@Suite struct CompositingCancellationTests {
    static let size = PixelSize(width: 600, height: 400)

    @Test func theLoopsStopWhenTheirJobIsCancelled() async throws {
        let pool = WorkerPool(name: "test.compositing", threads: 1)
        defer { pool.shutdown() }
        let fill = await CancelledJob.error(on: pool) { () throws(ImageError) in
            try Compositor.filled(.white, size: Self.size)
        }
        #expect(fill?.code == .cancelled)
        let source = [UInt8](repeating: 128, count: Self.size.area * 4)
        let merge = await CancelledJob.error(on: pool) { () throws(ImageError) in
            var target = [UInt8](repeating: 0, count: Self.size.area * 4)
            try source.withUnsafeBufferPointer { (source) throws(ImageError) in
                try target.withUnsafeMutableBufferPointer { (target) throws(ImageError) in
                    try Compositor.merge(
                        source, size: Self.size, into: target, size: Self.size, at: 0, 0, blending: .composite)
                }
            }
        }
        #expect(merge?.code == .cancelled)
        let frame = try PixelBuffer(width: 60, height: 40, format: .rgba8)
        let drawn = await CancelledJob.error(on: pool) { () throws(ImageError) in
            try Compositor.drawn(frame, over: .white, canvas: Self.size, at: 3, 2, blending: .composite)
        }
        #expect(drawn?.code == .cancelled)
        let mark = Image(
            pixels: try PixelBuffer(width: Self.size.width, height: Self.size.height, format: .rgba8, bytes: source))
        let overlay = await CancelledJob.error(on: pool) { () throws(ImageError) in
            try OverlayTransformer(mark, identifier: "m", x: .center, y: .center, transparency: 50)
        }
        #expect(overlay?.code == .cancelled)
        // Not cancelled, the same calls finish: a fill of 600 x 400 white pixels.
        let filled = try await pool.runCancellable { () throws(ImageError) in
            try Compositor.filled(.white, size: Self.size)
        }
        #expect(filled.count == Self.size.area * 4 && filled.allSatisfy { $0 == 255 })
    }
}

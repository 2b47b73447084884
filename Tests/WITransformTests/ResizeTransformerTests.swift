import Testing
import WICore
import WITransform

@Suite struct ResizeTransformerTests {
    @Test func fillGivesExactlyTheSize() throws {
        let image = try TestPixels.image(width: 525, height: 345) { _, _ in TestPixels.red }
        let output = try ResizeTransformer(width: 40, height: 30, mode: .fill).transform(image)
        #expect(output.size == PixelSize(width: 40, height: 30))
        #expect(output.pixels.format == .rgba8)
        for (x, y) in [(0, 0), (39, 29), (20, 15)] { #expect(output.pixels.color(x: x, y: y) == TestPixels.red) }
    }

    @Test func aspectFitLetterboxesOnAnExactCanvas() throws {
        // 525x345 into 40x30: the content is 40x26 (345 * 40/525 = 26.3), centred at y = 2, bars transparent.
        let image = try TestPixels.image(width: 525, height: 345) { _, _ in TestPixels.red }
        let output = try ResizeTransformer(width: 40, height: 30, mode: .aspectFit).transform(image)
        #expect(output.size == PixelSize(width: 40, height: 30))
        for y in 0..<30 {
            let alphas = Set(TestPixels.row(output.pixels, y, \.alpha))
            #expect(alphas == ((2..<28).contains(y) ? [255] : [0]), "row \(y)")
        }
        #expect(output.pixels.color(x: 0, y: 2) == TestPixels.red)
        #expect(output.pixels.color(x: 39, y: 27) == TestPixels.red)
        // Tall sources get bars left and right.
        let tall = try TestPixels.image(width: 30, height: 60) { _, _ in TestPixels.blue }
        let fitted = try ResizeTransformer(width: 20, height: 20, mode: .aspectFit).transform(tall)
        #expect(fitted.size == PixelSize(width: 20, height: 20))
        #expect(
            TestPixels.row(fitted.pixels, 10, \.alpha) == [Int](repeating: 0, count: 5)
                + [Int](repeating: 255, count: 10) + [Int](repeating: 0, count: 5))
    }

    @Test func aspectFillCropsTheCentre() throws {
        // 400x200, blue | red | green in quarters 1 | 2-3 | 4: filling 100x100 keeps exactly the red middle.
        let wide = try TestPixels.image(width: 400, height: 200) { x, _ in
            x < 100 ? TestPixels.blue : x < 300 ? TestPixels.red : TestPixels.green
        }
        let output = try ResizeTransformer(width: 100, height: 100, mode: .aspectFill).transform(wide)
        #expect(output.size == PixelSize(width: 100, height: 100))
        for y in [0, 50, 99] { #expect(Set((0..<100).map { output.pixels.color(x: $0, y: y) }) == [TestPixels.red]) }
        // The same top to bottom.
        let tall = try TestPixels.image(width: 200, height: 400) { _, y in
            y < 100 ? TestPixels.blue : y < 300 ? TestPixels.red : TestPixels.green
        }
        let cropped = try ResizeTransformer(width: 50, height: 50, mode: .aspectFill).transform(tall)
        #expect(cropped.size == PixelSize(width: 50, height: 50))
        for y in [0, 25, 49] { #expect(Set((0..<50).map { cropped.pixels.color(x: $0, y: y) }) == [TestPixels.red]) }
    }

    @Test func checkerboardReducedTenTimesIsFlatGrey() throws {
        let board = try TestPixels.image(width: 200, height: 200) { x, y in
            (x + y) % 2 == 0 ? .white : .black
        }
        let output = try ResizeTransformer(width: 20, height: 20).transform(board)
        var values: Set<Int> = []
        for y in 0..<20 {
            for component in [\RGBAColor.red, \.green, \.blue] {
                values.formUnion(TestPixels.row(output.pixels, y, component))
            }
            #expect(Set(TestPixels.row(output.pixels, y, \.alpha)) == [255])
        }
        #expect(values.allSatisfy { (126...130).contains($0) }, "\(values.sorted())")
    }

    @Test func upscalingIsASmoothRamp() throws {
        let pair = try TestPixels.image(width: 2, height: 1) { x, _ in x == 0 ? .black : .white }
        let output = try ResizeTransformer(width: 10, height: 1).transform(pair)
        let ramp = TestPixels.row(output.pixels, 0, \.red)
        #expect(ramp.first == 0 && ramp.last == 255)
        #expect(zip(ramp, ramp.dropFirst()).allSatisfy { $0 <= $1 }, "\(ramp)")
        #expect(Set(ramp).count >= 6, "\(ramp)")  // intermediate greys, not a hard step
        // The same between rows.
        let column = try TestPixels.image(width: 1, height: 2) { _, y in y == 0 ? .black : .white }
        let tall = try ResizeTransformer(width: 1, height: 10).transform(column)
        #expect((0..<10).map { Int(tall.pixels.color(x: 0, y: $0).red) } == ramp)
    }

    @Test func shrinkingOneAxisOnlyKeepsTheOtherExact() throws {
        let stripes = try TestPixels.image(width: 8, height: 3) { _, y in
            [TestPixels.red, TestPixels.green, TestPixels.blue][y]
        }
        let output = try ResizeTransformer(width: 2, height: 3).transform(stripes)
        for y in 0..<3 {
            #expect(
                Set((0..<2).map { output.pixels.color(x: $0, y: y) }) == [
                    [TestPixels.red, TestPixels.green, TestPixels.blue][y]
                ])
        }
    }

    @Test func transparentPixelsDoNotBleedColour() throws {
        // Opaque white next to transparent red: averaging in premultiplied alpha gives white at half alpha.
        let image = try TestPixels.image(width: 2, height: 1) { x, _ in
            x == 0 ? .white : RGBAColor(red: 255, green: 0, blue: 0, alpha: 0)
        }
        let output = try ResizeTransformer(width: 1, height: 1).transform(image)
        let pixel = output.pixels.color(x: 0, y: 0)
        #expect(pixel.red == 255 && pixel.green == 255 && pixel.blue == 255)
        #expect((127...128).contains(pixel.alpha))  // 127.5; pixman's two weights sum to 65535/65536
    }

    @Test func keepsPixelFormats() throws {
        for format in PixelFormat.allCases {
            let buffer = try TestPixels.buffer(width: 20, height: 10, format: format) { _, _ in TestPixels.green }
            let output = try ResizeTransformer(width: 5, height: 5, mode: .aspectFit).transform(Image(pixels: buffer))
            #expect(output.pixels.format == format)
            #expect(output.pixels.color(x: 2, y: 2) == TestPixels.green)
            #expect(output.pixels.color(x: 2, y: 0).alpha == 0)
        }
    }

    @Test func refusesOutputOverThePixelLimit() throws {
        let image = try TestPixels.image(width: 4, height: 4) { _, _ in .white }
        // Past the largest side the transformer is refused when made; under it, past the image's own limit, when used.
        let error = #expect(throws: ImageError.self) {
            try ResizeTransformer(width: 100_000, height: 100_000).transform(image)
        }
        #expect(error?.code == .invalidArgument)
        let limited = image.with(decodeOptions: DecodeOptions(pixelLimit: 99))
        let small = #expect(throws: ImageError.self) { try ResizeTransformer(width: 10, height: 10).transform(limited) }
        #expect(small?.code == .pixelLimitExceeded)
    }
}

import Testing
import WICore
import WITransform

@Suite struct ColorTransformerTests {
    @Test func tintLeavesAlphaAlone() throws {
        let image = try TestPixels.image(width: 256, height: 2) { x, y in
            RGBAColor(red: UInt8(x), green: UInt8(255 - x), blue: y == 0 ? 40 : 200, alpha: UInt8(x))
        }
        for mode in TintTransformer.BlendMode.allCases {
            for color in [RGBAColor(hex: "#ff8000")!, RGBAColor(hex: "#2060c080")!] {
                let output = try TintTransformer(color: color, blendMode: mode).transform(image)
                #expect(output.size == image.size)
                for y in 0..<2 {
                    #expect(TestPixels.row(output.pixels, y, \.alpha) == Array(0..<256), "\(mode) \(color)")
                }
            }
        }
    }

    @Test func tintColours() throws {
        let image = try TestPixels.image(width: 2, height: 1) { x, _ in
            x == 0 ? .white : RGBAColor(red: 255, green: 0, blue: 0, alpha: 128)
        }
        let orange = RGBAColor(hex: "#ff8000")!
        let normal = try TintTransformer(color: orange).transform(image)
        #expect(normal.pixels.color(x: 0, y: 0) == orange)
        #expect(normal.pixels.color(x: 1, y: 0) == RGBAColor(red: 255, green: 128, blue: 0, alpha: 128))
        let multiplied = try TintTransformer(color: orange, blendMode: .multiply).transform(image)
        #expect(multiplied.pixels.color(x: 0, y: 0) == orange)                  // white x orange
        #expect(multiplied.pixels.color(x: 1, y: 0) == RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
        // Half-transparent tint colour: halfway between the image and the colour.
        let half = try TintTransformer(color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 128)).transform(image)
        #expect(half.pixels.color(x: 0, y: 0) == RGBAColor(red: 127, green: 127, blue: 127))
        // Luminosity weighs channels: it must see red as red (not the swapped byte order pixman's fast paths use).
        let luminosity = try TintTransformer(color: .white, blendMode: .luminosity).transform(
            try TestPixels.image(width: 1, height: 1) { _, _ in TestPixels.red })
        #expect(luminosity.pixels.color(x: 0, y: 0) == .white)
    }

    @Test func blurOfOnePixelSpreadsSymmetrically() throws {
        let image = try TestPixels.image(width: 21, height: 21) { x, y in x == 10 && y == 10 ? .white : .black }
        let output = try BlurTransformer(radius: 2).transform(image)
        let value = { (x: Int, y: Int) in Int(output.pixels.color(x: x, y: y).red) }
        #expect(value(10, 10) < 255 && value(10, 10) > 0)
        for d in 1...6 {
            let ring = [value(10 - d, 10), value(10 + d, 10), value(10, 10 - d), value(10, 10 + d)]
            #expect(Set(ring).count == 1, "distance \(d): \(ring)")
            let diagonal = [value(10 - d, 10 - d), value(10 + d, 10 + d), value(10 - d, 10 + d), value(10 + d, 10 - d)]
            #expect(Set(diagonal).count == 1, "diagonal \(d): \(diagonal)")
            #expect(value(10 + d, 10) <= value(10 + d - 1, 10))
        }
        #expect(value(11, 10) > 0)
        #expect(value(0, 0) == 0)
        #expect(Set(TestPixels.row(output.pixels, 10, \.alpha)) == [255])
        #expect(try BlurTransformer(radius: 0).transform(image) === image)
    }

    @Test func blurRadiusIsTheStandardDeviation() throws {
        let line = try TestPixels.image(width: 81, height: 1) { x, _ in x == 40 ? .white : .black }
        let output = try BlurTransformer(radius: 5).transform(line)
        let values = TestPixels.row(output.pixels, 0, \.green).map(Double.init)
        let variance = values.enumerated().reduce(0) { $0 + $1.element * Double(($1.offset - 40) * ($1.offset - 40)) }
            / values.reduce(0, +)
        #expect(abs(variance.squareRoot() - 5) < 0.25, "sigma \(variance.squareRoot())")
        #expect(values[40] >= values[41] && values[40] > values[44] && values[35] == values[45])
    }

    @Test func blurOfAFlatImageIsFlat() throws {
        let image = try TestPixels.image(width: 30, height: 20) { _, _ in RGBAColor(red: 10, green: 200, blue: 90, alpha: 160) }
        let output = try BlurTransformer(radius: 5).transform(image)
        // Straight -> premultiplied -> straight in 8 bits turns green 200 at alpha 160 into 199 (and blue 90 into 89): the same round
        // trip every premultiplied-alpha library makes.
        let roundTrip = try image.pixels.converted(to: .premultipliedRGBA8).converted(to: .rgba8)
        #expect(roundTrip.color(x: 0, y: 0) == RGBAColor(red: 10, green: 199, blue: 89, alpha: 160))
        for (x, y) in [(0, 0), (29, 19), (15, 10)] { #expect(output.pixels.color(x: x, y: y) == roundTrip.color(x: x, y: y)) }
    }
}

import Testing
import WICore
import WITransform

/// AttentionCropTransformer on drawn images: where an object lies decides the window, the scaling is exactly
/// ResizeTransformer's, and bad sizes are refused. Real photos against libvips: WebImageTests/AttentionCropPhotoTests.
@Suite struct AttentionCropTransformerTests {
    static let grey = RGBAColor(red: 128, green: 128, blue: 128)
    static let skin = RGBAColor(red: 224, green: 172, blue: 140)

    /// A black `width` x `height` image with a 40x40 red-and-white checkerboard (4-pixel squares) whose top-left
    /// corner is (`x`, `y`): the only place with edges, colour or brightness.
    static func object(width: Int, height: Int, x: Int, y: Int) throws -> Image {
        try TestPixels.image(width: width, height: height) { px, py in
            guard (x..<x + 40).contains(px), (y..<y + 40).contains(py) else { return .black }
            return (px / 4 + py / 4) % 2 == 0 ? TestPixels.red : .white
        }
    }

    @Test func theWindowFollowsTheObject() throws {
        // 400x200 and 200x400 cover 100x100 at half size: the window slides 100 pixels along the long side. An
        // object near an edge pins the window to that edge; one inside is centred, to within the analysis copy's
        // step (400 / 64 = 6.25 source pixels, 3.1 scaled pixels).
        let crop = try AttentionCropTransformer(width: 100, height: 100)
        let cases: [(Image, x: Int, y: Int)] = try [
            (Self.object(width: 400, height: 200, x: 10, y: 80), 0, 0),  // left
            (Self.object(width: 400, height: 200, x: 350, y: 80), 100, 0),  // right
            (Self.object(width: 200, height: 400, x: 80, y: 10), 0, 0),  // top
            (Self.object(width: 200, height: 400, x: 80, y: 350), 0, 100),  // bottom
            (Self.object(width: 400, height: 200, x: 240, y: 80), 81, 0),  // centre 130 (scaled) - 50 = 80
            (Self.object(width: 200, height: 400, x: 80, y: 120), 0, 19),  // centre 70 - 50 = 20
        ]
        for (image, x, y) in cases {
            let placement = try crop.placement(for: image)
            #expect(placement.scaledSize == PixelSize(width: image.width / 2, height: image.height / 2))
            #expect((placement.x, placement.y) == (x, y), "\(image.size)")
        }
    }

    @Test func theOutputIsTheScaledImageCutAtTheWindow() throws {
        let image = try Self.object(width: 400, height: 200, x: 350, y: 80)
        let output = try AttentionCropTransformer(width: 100, height: 100).transform(image)
        #expect(output.size == PixelSize(width: 100, height: 100))
        let scaled = try ResizeTransformer(width: 200, height: 100).transform(image)
        #expect(output.pixels == (try CropTransformer(x: 100, y: 0, width: 100, height: 100).transform(scaled).pixels))
        // The object (scaled to 175...195 x 40...60) is in the window, at its right.
        #expect(output.pixels.color(x: 85, y: 50).alpha == 255 && output.pixels.color(x: 85, y: 50) != .black)
        #expect(output.pixels.color(x: 20, y: 50) == .black)
    }

    @Test func nothingInterestingGivesTheCentreCrop() throws {
        let image = try TestPixels.image(width: 300, height: 120) { _, _ in .black }
        let crop = try AttentionCropTransformer(width: 50, height: 40)
        let placement = try crop.placement(for: image)
        #expect(placement.scaledSize == PixelSize(width: 100, height: 40) && (placement.x, placement.y) == (25, 0))
        let output = try crop.transform(image)
        #expect(
            output.pixels == (try ResizeTransformer(width: 50, height: 40, mode: .aspectFill).transform(image).pixels))
        // Already the crop's shape: the whole image, scaled.
        let square = try TestPixels.image(width: 80, height: 80) { x, _ in x < 10 ? TestPixels.red : .black }
        let whole = try AttentionCropTransformer(width: 40, height: 40).placement(for: square)
        #expect(whole.scaledSize == PixelSize(width: 40, height: 40) && (whole.x, whole.y) == (0, 0))
    }

    @Test func skinAndSaturationOutscoreGreyOfTheSameLuminance() throws {
        // Two flat 60x60 patches on black, the same luminance (Y) each: edges score alike, colour decides.
        func patches(left: RGBAColor, right: RGBAColor) throws -> Image {
            try TestPixels.image(width: 400, height: 200) { x, y in
                guard (70..<130).contains(y) else { return .black }
                return (20..<80).contains(x) ? left : (320..<380).contains(x) ? right : .black
            }
        }
        let crop = try AttentionCropTransformer(width: 100, height: 100)
        // Y of the skin colour (224, 172, 140) is 46.6 (linear sRGB); grey 183 has Y 47.4.
        let greyForSkin = RGBAColor(red: 183, green: 183, blue: 183)
        #expect(try crop.placement(for: patches(left: greyForSkin, right: Self.skin)).x == 100)
        #expect(try crop.placement(for: patches(left: Self.skin, right: greyForSkin)).x == 0)
        // A saturated green (40, 160, 40) has Y 25.8; grey 139 has Y 25.8.
        let green = RGBAColor(red: 40, green: 160, blue: 40)
        let greyForGreen = RGBAColor(red: 139, green: 139, blue: 139)
        #expect(try crop.placement(for: patches(left: greyForGreen, right: green)).x == 100)
        #expect(try crop.placement(for: patches(left: green, right: greyForGreen)).x == 0)
    }

    @Test func everyFrameIsCutWhereTheFirstFrameSaysSo() throws {
        let first = try Self.object(width: 400, height: 200, x: 10, y: 80)
        let second = try Self.object(width: 400, height: 200, x: 350, y: 80)
        let animation = Image(
            frames: [
                ImageFrame(pixels: first.pixels, duration: 0.1),
                ImageFrame(pixels: second.pixels, duration: 0.2),
            ], loopCount: 0, format: .gif)
        let output = try AttentionCropTransformer(width: 100, height: 100).transform(animation)
        #expect(output.frameCount == 2 && output.durations == [0.1, 0.2])
        let scaled = try ResizeTransformer(width: 200, height: 100).transform(animation)
        let left = try CropTransformer(x: 0, y: 0, width: 100, height: 100).transform(scaled)
        #expect(try output.frames.map(\.pixels) == left.frames.map(\.pixels))
    }

    @Test func sixteenBitAndTransparentFramesKeepTheirFormat() throws {
        let image = try Self.object(width: 400, height: 200, x: 350, y: 80)
        let wide = Image(pixels: try image.pixels.converted(to: .rgba16))
        let output = try AttentionCropTransformer(width: 100, height: 100).transform(wide)
        #expect(output.pixels.format == .rgba16)
        #expect(try AttentionCropTransformer(width: 100, height: 100).placement(for: wide).x == 100)
        // Transparent pixels count as black, whatever colour they carry.
        let hidden = try TestPixels.image(width: 400, height: 200) { x, y in
            x < 200 ? RGBAColor(red: 255, green: 0, blue: 0, alpha: 0) : image.pixels.color(x: x, y: y)
        }
        #expect(try AttentionCropTransformer(width: 100, height: 100).placement(for: hidden).x == 100)
    }

    @Test func keyAndArguments() throws {
        #expect(try AttentionCropTransformer(width: 256, height: 128).key == "AttentionCrop(256x128)")
        #expect(
            try AttentionCropTransformer(width: 256, height: 128).key
                != ResizeTransformer(width: 256, height: 128, mode: .aspectFill).key)
        let cases: [(Int, Int, String)] = [
            (0, 5, "attention crop width must be in 1...32767, got 0"),
            (5, -1, "attention crop height must be in 1...32767, got -1"),
            (32768, 1, "attention crop width must be in 1...32767, got 32768"),
            (.min, 1, "attention crop width must be in 1...32767, got \(Int.min)"),
            (32767, 8193, "attention crop size must have at most 268435456 pixels, got 32767x8193"),
        ]
        for (width, height, message) in cases {
            let error = #expect(throws: ImageError.self) { try AttentionCropTransformer(width: width, height: height) }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message == message)
        }
        #expect(try AttentionCropTransformer(width: 32767, height: 8192).size == PixelSize(width: 32767, height: 8192))
    }

    @Test func aWindowLargerThanTheScaledSideAndTinyImages() throws {
        // A 1x1 image covers any crop: the window is the whole (scaled) image.
        let dot = try TestPixels.image(width: 1, height: 1) { _, _ in TestPixels.red }
        let output = try AttentionCropTransformer(width: 7, height: 3).transform(dot)
        #expect(output.size == PixelSize(width: 7, height: 3))
        #expect(output.pixels.color(x: 3, y: 1) == TestPixels.red)
        // A 1000x1 strip covering 10x10: scaled to 10000x10, the window slides along a 64x1 map. White starts at
        // 9010 (scaled); the window (one map pixel wide) lands on the map's first all-white pixel, the strongest
        // edge, which spans 9062...9218: centred, 9140 - 5, rounded through the map's 156.25-pixel step.
        let strip = try TestPixels.image(width: 1000, height: 1) { x, _ in x > 900 ? .white : .black }
        let placement = try AttentionCropTransformer(width: 10, height: 10).placement(for: strip)
        #expect(placement.scaledSize == PixelSize(width: 10000, height: 10))
        #expect((placement.x, placement.y) == (9136, 0))
    }
}

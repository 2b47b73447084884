import Foundation
import Testing
import WICore
import WITestSupport
import WITransform

/// Caller values reach every transformer initializer straight from a query string: each must give an exact
/// `.invalidArgument` or a transformer whose output has exactly the predicted size, never a trap.
@Suite struct TransformerArgumentTests {
    static let side = ImageCoding.Geometry.maximumSide
    static let resizeSide = ResizeTransformer.maximumSide

    // MARK: boundaries

    @Test func resizeSidesAndArea() throws {
        #expect(ResizeTransformer.maximumSide == 32767)
        try expectInvalid("resize width must be in 1...32767, got 0") { try ResizeTransformer(width: 0, height: 5) }
        try expectInvalid("resize height must be in 1...32767, got -3") { try ResizeTransformer(width: 5, height: -3) }
        try expectInvalid("resize width must be in 1...32767, got 32768") {
            try ResizeTransformer(width: 32768, height: 1)
        }
        try expectInvalid("resize width must be in 1...32767, got \(Int.min)") {
            try ResizeTransformer(width: .min, height: 1)
        }
        try expectInvalid("resize size must have at most 268435456 pixels, got 32767x8193") {
            try ResizeTransformer(width: 32767, height: 8193)
        }
        #expect(try ResizeTransformer(width: 32767, height: 8192).size == PixelSize(width: 32767, height: 8192))
        #expect(try ResizeTransformer(width: 1, height: 1, mode: .aspectFit).size == PixelSize(width: 1, height: 1))
    }

    @Test func cropRectangle() throws {
        try expectInvalid("crop width must be in 1...65536, got 0") {
            try CropTransformer(x: 0, y: 0, width: 0, height: 1)
        }
        try expectInvalid("crop height must be in 1...65536, got -1") {
            try CropTransformer(x: 0, y: 0, width: 1, height: -1)
        }
        try expectInvalid("crop x must be in -65536...65536, got \(Int.max)") {
            try CropTransformer(x: .max, y: 0, width: 1, height: 1)
        }
        try expectInvalid("crop y must be in -65536...65536, got -65537") {
            try CropTransformer(x: 0, y: -65537, width: 1, height: 1)
        }
        let widest = try CropTransformer(x: 65536, y: -65536, width: 65536, height: 65536)
        #expect(widest.key == "Crop(65536,-65536,65536x65536)")
    }

    @Test func rotationAngle() throws {
        try expectInvalid("rotation degrees must be a finite number, got nan") { try RotateTransformer(degrees: .nan) }
        try expectInvalid("rotation degrees must be a finite number, got inf") {
            try RotateTransformer(degrees: .infinity)
        }
        try expectInvalid("rotation degrees must be a finite number, got -inf") {
            try RotateTransformer(degrees: -.infinity, fitsCanvas: true)
        }
        let image = try TestPixels.image(width: 6, height: 4) { _, _ in TestPixels.red }
        let huge = try RotateTransformer(degrees: .greatestFiniteMagnitude, fitsCanvas: true).transform(image)
        #expect(huge.size == Self.rotatedSize(image.size, degrees: .greatestFiniteMagnitude))
    }

    @Test func cornerRadiusAndBorder() throws {
        try expectInvalid("corner radius must be a finite number >= 0, got -1.0") {
            try RoundCornerTransformer(radius: -1)
        }
        try expectInvalid("corner radius must be a finite number >= 0, got inf") {
            try RoundCornerTransformer(radius: .infinity)
        }
        try expectInvalid("border width must be a finite number >= 0, got nan") {
            try RoundCornerTransformer(radius: 2, borderWidth: .nan)
        }
        try expectInvalid("border width must be a finite number >= 0, got -0.5") {
            try RoundCornerTransformer(radius: 2, borderWidth: -0.5)
        }
        // A finite radius larger than the image is clamped, not refused.
        let image = try TestPixels.image(width: 5, height: 3) { _, _ in TestPixels.blue }
        let pill = try RoundCornerTransformer(radius: 1e300, borderWidth: 1e300, borderColor: .white).transform(image)
        #expect(pill.size == image.size)
    }

    @Test func blurRadius() throws {
        try expectInvalid("blur radius must be a finite number in 0...1048576, got -0.001") {
            try BlurTransformer(radius: -0.001)
        }
        try expectInvalid("blur radius must be a finite number in 0...1048576, got nan") {
            try BlurTransformer(radius: .nan)
        }
        try expectInvalid("blur radius must be a finite number in 0...1048576, got 1048576.5") {
            try BlurTransformer(radius: 1048576.5)
        }
        let image = try TestPixels.image(width: 4, height: 7) { x, _ in x < 2 ? TestPixels.red : TestPixels.green }
        let widest = try BlurTransformer(radius: BlurTransformer.maximumRadius).transform(image)
        #expect(widest.size == image.size)
        #expect(try BlurTransformer(radius: 0).transform(image) === image)
    }

    // MARK: property test

    /// 4000 random parameter sets, from a fixed seed, over every transformer initializer; valid ones are applied
    /// to a small image of random size.
    @Test func randomParametersGiveAnErrorOrTheExactSize() throws {
        var random = SeededRandom(seed: 0x5EED_0021)
        var counts = (invalid: 0, applied: 0, missedCrop: 0, tooLargeToApply: 0)
        for _ in 0..<4000 {
            let size = PixelSize(
                width: Int.random(in: 1...9, using: &random), height: Int.random(in: 1...9, using: &random))
            let image = try TestPixels.image(width: size.width, height: size.height) { x, y in
                RGBAColor(red: UInt8(x * 20), green: UInt8(y * 20), blue: 90, alpha: 200)
            }
            let kind = Int.random(in: 0..<7, using: &random)
            let expected: PixelSize?
            let made: Result<any ImageTransformer, ImageError>
            switch kind {
            case 0:
                let (width, height) = (Self.integer(&random), Self.integer(&random))
                let valid =
                    (1...Self.resizeSide).contains(width) && (1...Self.resizeSide).contains(height)
                    && width * height <= DecodeOptions.defaultPixelLimit
                expected = valid ? PixelSize(width: width, height: height) : nil
                let mode = [ResizeTransformer.Mode.fill, .aspectFit, .aspectFill].randomElement(using: &random)!
                made = Result { () throws(ImageError) in try ResizeTransformer(width: width, height: height, mode: mode)
                }
            case 1:
                let (x, y) = (Self.integer(&random), Self.integer(&random))
                let (width, height) = (Self.integer(&random), Self.integer(&random))
                let valid =
                    (-Self.side...Self.side).contains(x) && (-Self.side...Self.side).contains(y)
                    && (1...Self.side).contains(width) && (1...Self.side).contains(height)
                // The part of the rectangle inside the image; zero-sized when it misses (then `.badImageData`).
                expected =
                    valid
                    ? PixelSize(
                        width: max(0, min(size.width, x + width) - max(0, x)),
                        height: max(0, min(size.height, y + height) - max(0, y))) : nil
                made = Result { () throws(ImageError) in try CropTransformer(x: x, y: y, width: width, height: height) }
            case 2:
                let degrees = Self.real(&random)
                let fits = Bool.random(using: &random)
                expected = degrees.isFinite ? (fits ? Self.rotatedSize(size, degrees: degrees) : size) : nil
                made = Result { () throws(ImageError) in try RotateTransformer(degrees: degrees, fitsCanvas: fits) }
            case 3:
                let radius = Self.real(&random)
                let border = Self.real(&random)
                let valid = radius.isFinite && radius >= 0 && border.isFinite && border >= 0
                expected = valid ? size : nil
                let corners = RoundCornerTransformer.Corners(rawValue: Int.random(in: 0...15, using: &random))
                made = Result { () throws(ImageError) in
                    try RoundCornerTransformer(
                        radius: radius, corners: corners, borderWidth: border, borderColor: .white)
                }
            case 4:
                let radius = Self.real(&random)
                expected = radius.isFinite && radius >= 0 && radius <= BlurTransformer.maximumRadius ? size : nil
                made = Result { () throws(ImageError) in try BlurTransformer(radius: radius) }
            case 5:
                expected = size
                let color = RGBAColor(
                    red: .random(in: 0...255, using: &random), green: .random(in: 0...255, using: &random),
                    blue: .random(in: 0...255, using: &random), alpha: .random(in: 0...255, using: &random))
                let mode = TintTransformer.BlendMode.allCases.randomElement(using: &random)!
                made = .success(TintTransformer(color: color, blendMode: mode))
            default:
                expected = size
                made = .success(FlipTransformer(horizontal: .random(using: &random), vertical: .random(using: &random)))
            }
            switch (made, expected) {
            case (.failure(let error), nil):
                #expect(error.code == .invalidArgument)
                counts.invalid += 1
            case (.failure(let error), .some):
                Issue.record("refused valid parameters: \(error)")
            case (.success(let transformer), nil):
                Issue.record("accepted invalid parameters: \(transformer.key)")
            case (.success(let transformer), .some(let outputSize)):
                if outputSize.area > 1 << 22 {
                    counts.tooLargeToApply += 1  // a valid 32767x8192 canvas: correct, but 1 GB per case
                } else if outputSize.area == 0 {
                    do {
                        _ = try transformer.transform(image)
                        Issue.record("\(transformer.key) misses the \(size) image but gave an image")
                    } catch {
                        #expect(error.code == .badImageData)
                    }
                    counts.missedCrop += 1
                } else {
                    let output = try transformer.transform(image)
                    #expect(output.size == outputSize, "\(transformer.key) on \(size)")
                    counts.applied += 1
                }
            }
        }
        // The generator reaches every outcome often (exact counts: the seed is fixed).
        let outcomes: [Int] = [counts.invalid, counts.applied, counts.missedCrop, counts.tooLargeToApply]
        #expect(outcomes == [1633, 2328, 38, 1])
    }

    // MARK: helpers

    /// Special integers (0, +-1, the limits around `maximumSide`, `Int.min`, `Int.max`) half the time, else small.
    static func integer(_ random: inout SeededRandom) -> Int {
        let special = [
            0, 1, -1, 2, side, side + 1, -side, -side - 1, resizeSide, resizeSide + 1, 8192, 8193, .max, .min,
            1 << 40, -(1 << 40),
        ]
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return special.randomElement(using: &random)!
        case 1: return Int.random(in: Int.min...Int.max, using: &random)
        default: return Int.random(in: -12...24, using: &random)
        }
    }

    /// Special doubles (NaN, infinities, -0, huge and tiny values, `maximumSide` and just above) half the time.
    static func real(_ random: inout SeededRandom) -> Double {
        let special: [Double] = [
            0, -0.0, .nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            .leastNonzeroMagnitude, 1e300, -1e-300, BlurTransformer.maximumRadius,
            BlurTransformer.maximumRadius + 0.5, 90, 180, -270,
        ]
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return special.randomElement(using: &random)!
        case 1: return Double(bitPattern: random.next())
        default: return Double.random(in: -20...60, using: &random)
        }
    }

    /// The documented rotated bounding box: each side rounded to the nearest pixel, at least 1.
    static func rotatedSize(_ size: PixelSize, degrees: Double) -> PixelSize {
        let radians = degrees.truncatingRemainder(dividingBy: 360) * .pi / 180
        let (c, s) = (abs(cos(radians)), abs(sin(radians)))
        let (w, h) = (Double(size.width), Double(size.height))
        return PixelSize(width: max(1, Int((w * c + h * s).rounded())), height: max(1, Int((w * s + h * c).rounded())))
    }
}

import Foundation
import Testing
import WICore
import WITestSupport

/// Decode and encode options taken from a caller (a server passes query-string values straight in) give an exact
/// `.invalidArgument` naming the value, or a result of exactly the documented size; never a trap.
@Suite struct OptionValidationTests {
    static let side = ImageCoding.Geometry.maximumSide

    // MARK: boundaries

    @Test func decodeOptionBoundaries() throws {
        try expectInvalid("thumbnail width must be in 0...65536, got -1") {
            try DecodeOptions(thumbnailPixelSize: PixelSize(width: -1, height: 10)).validate()
        }
        try expectInvalid("thumbnail height must be in 0...65536, got 65537") {
            try DecodeOptions(thumbnailPixelSize: PixelSize(width: 10, height: 65537)).validate()
        }
        try expectInvalid("scale factor must be a finite number > 0, got 0.0") {
            try DecodeOptions(scaleFactor: 0).validate()
        }
        try expectInvalid("scale factor must be a finite number > 0, got nan") {
            try DecodeOptions(scaleFactor: .nan).validate()
        }
        try expectInvalid("scale factor must be a finite number > 0, got inf") {
            try DecodeOptions(scaleFactor: .infinity).validate()
        }
        try expectInvalid("scale-down limit bytes must be in 1...\(Int.max), got 0") {
            try DecodeOptions(scaleDownLimitBytes: 0).validate()
        }
        try expectInvalid("pixel limit must be in 1...\(Int.max), got \(Int.min)") {
            try DecodeOptions(pixelLimit: .min).validate()
        }
        // The edges that are allowed.
        let edge = DecodeOptions(
            thumbnailPixelSize: PixelSize(width: 0, height: 65536), scaleFactor: .leastNonzeroMagnitude,
            scaleDownLimitBytes: 1, pixelLimit: 1)
        #expect(try edge.validated() == edge)
        try DecodeOptions(
            thumbnailPixelSize: PixelSize(width: 0, height: 0), scaleDownLimitBytes: .max, pixelLimit: .max
        )
        .validate()
    }

    @Test func encodeOptionBoundaries() throws {
        try expectInvalid("quality must be a finite number in 0...1, got 1.5") {
            try EncodeOptions(quality: 1.5).validate()
        }
        try expectInvalid("quality must be a finite number in 0...1, got -0.1") {
            try EncodeOptions(quality: -0.1).validate()
        }
        try expectInvalid("quality must be a finite number in 0...1, got nan") {
            try EncodeOptions(quality: .nan).validate()
        }
        try expectInvalid("max pixel width must be in 1...65536, got 0") {
            try EncodeOptions(maxPixelSize: PixelSize(width: 0, height: 5)).validate()
        }
        try expectInvalid("max pixel height must be in 1...65536, got \(Int.max)") {
            try EncodeOptions(maxPixelSize: PixelSize(width: 5, height: .max)).validate()
        }
        try expectInvalid("max file size must be in 1...\(Int.max), got -5") {
            try EncodeOptions(maxFileSize: -5).validate()
        }
        let edge = EncodeOptions(quality: 0, maxPixelSize: PixelSize(width: 65536, height: 1), maxFileSize: 1)
        #expect(try edge.validated() == edge)
        try EncodeOptions(quality: 1).validate()
    }

    @Test func codersManagerChecksOptionsBeforeAnyCoder() throws {
        let coder = MockCoder(magic: "MOCK", marker: 1)
        let manager = ImageCodersManager(coders: [coder])
        let data = coder.data(width: 4, height: 4)
        let decode = #expect(throws: ImageError.self) {
            try manager.decode(data, options: DecodeOptions(scaleFactor: -2))
        }
        #expect(decode?.code == .invalidArgument)
        #expect(decode?.message == "scale factor must be a finite number > 0, got -2.0")
        let animated = #expect(throws: ImageError.self) {
            try manager.makeAnimatedDecoder(data, options: DecodeOptions(pixelLimit: 0))
        }
        #expect(animated?.code == .invalidArgument)
        let image = try manager.decode(data, options: .init())
        let encode = #expect(throws: ImageError.self) {
            try manager.encode(image, as: coder.decodingFormats[0], options: EncodeOptions(quality: .infinity))
        }
        #expect(encode?.code == .invalidArgument)
        #expect(coder.decodeCount == 1 && coder.encodeCount == 0)
    }

    // MARK: property test

    /// 3000 random decode option sets over random small sources, from a fixed seed: invalid ones throw exactly
    /// `.invalidArgument`; valid ones decode to the size `ImageCoding.Geometry` documents, or `.pixelLimitExceeded`.
    @Test func randomDecodeOptionsGiveAnErrorOrTheExactSize() throws {
        var random = SeededRandom(seed: 0xDEC0_DE21)
        let coder = MockCoder(magic: "MOCK", marker: 3)
        let manager = ImageCodersManager(coders: [coder])
        var counts = (invalid: 0, decoded: 0, overLimit: 0)
        for _ in 0..<3000 {
            let source = PixelSize(
                width: Int.random(in: 1...48, using: &random), height: Int.random(in: 1...48, using: &random))
            var options = DecodeOptions()
            if Bool.random(using: &random) {
                options.thumbnailPixelSize = PixelSize(width: Self.integer(&random), height: Self.integer(&random))
            }
            options.preserveAspectRatio = Bool.random(using: &random)
            if Int.random(in: 0..<4, using: &random) == 0 { options.scaleFactor = Self.real(&random) }
            if Int.random(in: 0..<3, using: &random) == 0 { options.scaleDownLimitBytes = Self.integer(&random) }
            if Int.random(in: 0..<3, using: &random) == 0 { options.pixelLimit = Self.integer(&random) }
            let box = options.thumbnailPixelSize
            let valid =
                (box.map { (0...Self.side).contains($0.width) && (0...Self.side).contains($0.height) } ?? true)
                && options.scaleFactor.isFinite && options.scaleFactor > 0
                && (options.scaleDownLimitBytes.map { $0 >= 1 } ?? true) && options.pixelLimit >= 1
            do {
                let image = try manager.decode(coder.data(width: source.width, height: source.height), options: options)
                #expect(valid, "accepted \(options)")
                let expected =
                    if let limit = options.scaleDownLimitBytes {
                        ImageCoding.Geometry.scaledSize(of: source, limitBytes: limit)
                    } else if let box {
                        ImageCoding.Geometry.scaledSize(
                            of: source, toFit: box, preserveAspectRatio: options.preserveAspectRatio)
                    } else {
                        source
                    }
                #expect(image.size == expected, "\(options) on \(source)")
                #expect(image.scale == options.scaleFactor)
                counts.decoded += 1
            } catch {
                if valid {
                    #expect(error.code == .pixelLimitExceeded && source.area > options.pixelLimit, "\(error)")
                    counts.overLimit += 1
                } else {
                    #expect(error.code == .invalidArgument, "\(error)")
                    counts.invalid += 1
                }
            }
        }
        #expect(counts.invalid > 500 && counts.decoded > 1000 && counts.overLimit > 20, "\(counts)")
    }

    /// 3000 random encode option sets: invalid ones throw exactly `.invalidArgument` before the coder is asked.
    @Test func randomEncodeOptionsGiveAnErrorOrData() throws {
        var random = SeededRandom(seed: 0xE1C0_DE21)
        let coder = MockCoder(magic: "MOCK", marker: 4)
        let manager = ImageCodersManager(coders: [coder])
        let image = try manager.decode(coder.data(width: 3, height: 2), options: .init())
        var invalid = 0
        for _ in 0..<3000 {
            var options = EncodeOptions(quality: Self.real(&random))
            if Bool.random(using: &random) {
                options.maxPixelSize = PixelSize(width: Self.integer(&random), height: Self.integer(&random))
            }
            if Bool.random(using: &random) { options.maxFileSize = Self.integer(&random) }
            let valid =
                options.quality.isFinite && (0...1).contains(options.quality)
                && (options.maxPixelSize.map {
                    (1...Self.side).contains($0.width) && (1...Self.side).contains($0.height)
                } ?? true)
                && (options.maxFileSize.map { $0 >= 1 } ?? true)
            do {
                #expect(
                    try manager.encode(image, as: coder.decodingFormats[0], options: options)
                        == coder.data(width: image.width, height: image.height))
                #expect(valid, "accepted \(options)")
            } catch {
                #expect(!valid && error.code == .invalidArgument, "\(error)")
                invalid += 1
            }
        }
        #expect(coder.encodeCount == 3000 - invalid)
        #expect(invalid > 1000 && invalid < 2900, "\(invalid)")
    }

    // MARK: helpers

    static func integer(_ random: inout SeededRandom) -> Int {
        let special = [0, 1, -1, side, side + 1, -side, 100, 4096, .max, .min, 1 << 40]
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return special.randomElement(using: &random)!
        case 1: return Int.random(in: Int.min...Int.max, using: &random)
        default: return Int.random(in: -8...3000, using: &random)
        }
    }

    static func real(_ random: inout SeededRandom) -> Double {
        let special: [Double] = [
            0, -0.0, 1, .nan, .infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
            -1, 1.0000001, 2, 3,
        ]
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return special.randomElement(using: &random)!
        case 1: return Double(bitPattern: random.next())
        default: return Double.random(in: -0.5...1.5, using: &random)
        }
    }

    func expectInvalid(
        _ message: String, _ body: () throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        do {
            try body()
            Issue.record("no error; expected \(message)", sourceLocation: sourceLocation)
        } catch {
            let error = try #require(error as? ImageError, sourceLocation: sourceLocation)
            #expect(error.code == .invalidArgument, sourceLocation: sourceLocation)
            #expect(error.message == message, sourceLocation: sourceLocation)
        }
    }
}

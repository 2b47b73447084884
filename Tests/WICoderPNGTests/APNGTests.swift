import Foundation
import Testing
import WICore
import WICoderPNG
import WITestSupport

/// One line of Tests/Fixtures/apng-reference.tsv (refdecode.py, by make-apng-reference.sh) or
/// apng-combo-expected.tsv (the APNG spec's rules, by make-apng-fixtures.py).
struct APNGReference: Sendable, CustomTestStringConvertible {
    var file: String
    var size: PixelSize
    var loopCount: Int
    var durationsMilliseconds: [Int]
    /// SHA-256 of each frame's RGBA8 bytes.
    var sha256: [String]
    var testDescription: String { file }

    static func lines(_ table: String) -> [[String]] {
        String(decoding: Fixtures.data(table), as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\t").map(String.init) }
    }

    static let refdecode: [APNGReference] = lines("apng-reference.tsv").map { f in
        APNGReference(
            file: f[0], size: PixelSize(width: Int(f[1])!, height: Int(f[2])!), loopCount: Int(f[4])!,
            durationsMilliseconds: f[5].split(separator: ",").map { Int($0) ?? 0 },
            sha256: f[6].split(separator: ",").map(String.init))
    }

    static let combos: [APNGReference] = lines("apng-combo-expected.tsv").map { f in
        let frames = f[3].split(separator: ",").map { hex in
            stride(from: 0, to: hex.count, by: 2).map { i -> UInt8 in
                let start = hex.index(hex.startIndex, offsetBy: i)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
            }
        }
        return APNGReference(
            file: f[0], size: PixelSize(width: 4, height: 4), loopCount: Int(f[1])!,
            durationsMilliseconds: f[2].split(separator: ",").map { Int($0)! },
            sha256: frames.map { SHA256.hex($0) })
    }
}

@Suite struct APNGTests {
    static func check(_ reference: APNGReference, skipFrames: Set<Int> = []) throws {
        let image = try PNGCoder().decode(Fixtures.data(reference.file), options: .init())
        #expect(image.size == reference.size)
        #expect(image.format == .png)
        #expect(image.frameCount == reference.sha256.count)
        #expect(image.loopCount == reference.loopCount)
        #expect(image.durations == reference.durationsMilliseconds.map { ImageFrame.browserDuration(milliseconds: $0) })
        #expect(image.flags == [])
        for (index, frame) in try image.frames.enumerated()
        where index < reference.sha256.count && !skipFrames.contains(index) {
            #expect(SHA256.hex(frame.pixels.packedBytes()) == reference.sha256[index], "frame \(index)")
        }
    }

    /// Every dispose_op x blend_op pair, with semi-transparent pixels, against the spec's rules.
    @Test(arguments: APNGReference.combos)
    func everyDisposeAndBlendCombination(reference: APNGReference) throws {
        try Self.check(reference)
    }

    @Test(arguments: APNGReference.refdecode)
    func decodesLikeRefdecode(reference: APNGReference) throws {
        // apng-red-blue frame 3: Pillow's APNG compositing deviates; checked against the GIF version below.
        try Self.check(reference, skipFrames: reference.file == "png/apng-red-blue.png" ? [3] : [])
    }

    @Test func theSameAnimationAsGIFAndAsAPNGDecodesToTheSameFrames() throws {
        let png = try PNGCoder().decode(Fixtures.data("png/apng-red-blue.png"), options: .init())
        // Decoded as GIF by the GIF coder's tests (wuffs made both files from one animation); hashes from there.
        #expect(
            try png.frames.map { String(SHA256.hex($0.pixels.packedBytes()).prefix(8)) } == [
                "35759e5d", "9da7aa33", "b083df8f", "facbaa00",
            ])
        #expect(png.loopCount == 3)
    }

    @Test func theDefaultImageIsNotAFrameWhenItsIDATComesBeforeTheFirstFcTL() throws {
        let skipped = try PNGCoder().decode(Fixtures.data("apng/combo-d0-b0-skip.png"), options: .init())
        let plain = try PNGCoder().decode(Fixtures.data("apng/combo-d0-b0.png"), options: .init())
        #expect(try skipped.frames.map(\.pixels) == plain.frames.map(\.pixels))
        // The first frame only: the animation's first frame, not the white default image.
        let first = try PNGCoder().decode(
            Fixtures.data("apng/combo-d0-b0-skip.png"), options: .init(firstFrameOnly: true))
        #expect(first.frameCount == 1 && first.loopCount == 0)
        #expect(first.pixels == plain.pixels)
    }

    @Test func framesOnDemandInAnyOrder() throws {
        let data = Fixtures.data("apng/basic_f20.png")
        let all = try PNGCoder().decode(data, options: .init())
        let decoder = try PNGCoder().makeAnimatedDecoder(data, options: .init())
        #expect(decoder.frameCount == 20 && decoder.loopCount == 0)
        #expect(decoder.canvasSize == PixelSize(width: 100, height: 100))
        for index in [19, 3, 0, 11, 12, 5, 19] {
            #expect(try decoder.frame(at: index) == all.frames[index].pixels, "frame \(index)")
            #expect(decoder.duration(at: index) == 0.075)
        }
        let still = #expect(throws: ImageError.self) {
            try PNGCoder().makeAnimatedDecoder(Fixtures.data("formats/sample.png"), options: .init())
        }
        #expect(still?.code == .unsupportedFormat)
    }

    @Test func thumbnailsScaleEveryFrame() throws {
        let image = try PNGCoder().decode(
            Fixtures.data("apng/basic_f20.png"),
            options: .init(thumbnailPixelSize: .init(width: 50, height: 50)))
        #expect(image.size == PixelSize(width: 50, height: 50))
        #expect(image.frameCount == 20)
        #expect(image.flags == .thumbnail)
    }

    @Test func thePixelLimitCountsEveryFrame() {
        let data = Fixtures.data("apng/basic_f20.png")  // 100x100 x 20 frames = 200,000 pixels
        let error = #expect(throws: ImageError.self) {
            try PNGCoder().decode(data, options: .init(pixelLimit: 199_999))
        }
        #expect(error?.code == .pixelLimitExceeded)
        #expect(throws: Never.self) {
            try PNGCoder().decode(data, options: .init(firstFrameOnly: true, pixelLimit: 10_000))
        }
    }
}

import Foundation
import Testing
import WICore
import WICoderPNG
import WITestSupport

/// Truncated and bit-flipped copies of real files: a typed error or an image, never a crash, never slow.
@Suite struct PNGRobustnessTests {
    static let files = ["png/interlaced-hibiscus.png", "png/rgba16.png", "png/indexed-4bit-trns.png",
                        "png/exif-orientation6-iccp.png", "pngsuite/basi6a16.png", "pngsuite/z09n2c08.png"]

    @Test(arguments: files)
    func truncatedAt32Offsets(file: String) {
        let data = Fixtures.data(file)
        var random = SeededRandom(seed: 32)
        for _ in 0..<32 {
            let cut = Int.random(in: 0..<data.count, using: &random)
            let clock = ContinuousClock()
            let started = clock.now
            let error = #expect(throws: ImageError.self) { try PNGCoder().decode(data.prefix(cut), options: .init()) }
            #expect(error?.code == .badImageData, "cut at \(cut)")
            #expect(clock.now - started < .seconds(1))
        }
    }

    @Test(arguments: files)
    func hundredBitFlippedCopies(file: String) {
        let data = Fixtures.data(file)
        var random = SeededRandom(seed: 100)
        var decoded = 0, failed = 0
        for _ in 0..<100 {
            var copy = [UInt8](data)
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let index = Int.random(in: 0..<copy.count, using: &random)
                copy[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
            }
            let clock = ContinuousClock()
            let started = clock.now
            do {
                let image = try PNGCoder().decode(Data(copy), options: .init())
                #expect(image.width > 0 && image.height > 0)
                decoded += 1
            } catch {
                #expect([.badImageData, .pixelLimitExceeded].contains(error.code))
                failed += 1
            }
            #expect(clock.now - started < .seconds(1))
        }
        #expect(decoded + failed == 100)
    }
}

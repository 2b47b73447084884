import Foundation
import Testing
import WICore
import WICoderWebP
import WITestSupport

/// Truncated and bit-flipped copies of every fixture: a typed error or an image, never a crash, never slow.
@Suite struct WebPRobustnessTests {
    @Test(arguments: WebPReference.all)
    func truncatedAt32Offsets(reference: WebPReference) {
        let data = reference.data
        var random = SeededRandom(seed: 32)
        for _ in 0..<32 {
            let cut = Int.random(in: 0..<data.count, using: &random)
            let clock = ContinuousClock()
            let started = clock.now
            let error = #expect(throws: ImageError.self) { try WebPCoder().decode(data.prefix(cut), options: .init()) }
            #expect(error?.code == .badImageData, "cut at \(cut)")
            // The incremental decoder takes the same bytes and fails the same way at the end (or declines).
            if let decoder = WebPCoder().makeIncrementalDecoder(header: data.prefix(min(cut, 64)), options: .init()) {
                _ = try? decoder.append(data.prefix(cut))
                _ = decoder.currentImage()
                #expect(throws: ImageError.self) { try decoder.finish() }
            }
            #expect(clock.now - started < .seconds(1), "cut at \(cut)")
        }
    }

    @Test(arguments: WebPReference.all)
    func hundredBitFlippedCopies(reference: WebPReference) {
        let data = reference.data
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
                let image = try WebPCoder().decode(Data(copy), options: .init())
                #expect(image.width > 0 && image.height > 0)
                decoded += 1
            } catch {
                #expect([.badImageData, .pixelLimitExceeded].contains(error.code), "\(error)")
                failed += 1
            }
            #expect(clock.now - started < .seconds(1))
        }
        #expect(decoded + failed == 100)
    }
}

import Foundation
import Testing
import WICore
import WICoderJXL
import WITestSupport

struct JXLEncodeTests {
    let coder = JXLCoder(effort: 3)

    @Test func losslessRoundTripKeepsEveryPixel() throws {
        for file in ["gray_alpha_lossless.jxl", "progressive.jxl"] {
            let image = try coder.decode(Fixtures.data("jxl/\(file)"), options: .init())
            let encoded = try coder.encode(image, as: .jxl, options: .init(lossless: true))
            #expect(coder.canDecode(encoded))
            let back = try coder.decode(encoded, options: .init())
            #expect(back.size == image.size)
            #expect(try back.frames[0].pixels == image.frames[0].pixels, "\(file)")
        }
    }

    @Test func lossless16BitRoundTrip() throws {
        let image = try coder.decode(Fixtures.data("jxl/rgba16-lossless.jxl"), options: .init(keep16Bit: true))
        let encoded = try coder.encode(image, as: .jxl, options: .init(lossless: true))
        let back = try coder.decode(encoded, options: .init(keep16Bit: true))
        #expect(try back.frames[0].pixels == image.frames[0].pixels)
    }

    @Test func lossyQualityTradesSizeForFidelity() throws {
        let image = try coder.decode(Fixtures.data("jxl/progressive.jxl"), options: .init())
        let high = try coder.encode(image, as: .jxl, options: .init(quality: 0.95))
        let low = try coder.encode(image, as: .jxl, options: .init(quality: 0.3))
        #expect(low.count < high.count)
        let highBack = try coder.decode(high, options: .init())
        let lowBack = try coder.decode(low, options: .init())
        let highPSNR = try JXLTestSupport.psnr(highBack.frames[0].pixels, image.frames[0].pixels)
        #expect(highPSNR >= 35)
        #expect(try JXLTestSupport.psnr(lowBack.frames[0].pixels, image.frames[0].pixels) < highPSNR)
        let capped = try coder.encode(image, as: .jxl, options: .init(quality: 0.95, maxFileSize: low.count + 2000))
        #expect(capped.count <= low.count + 2000)
        #expect(
            try coder.encode(image, as: .jxl, options: .init(maxPixelSize: PixelSize(width: 100, height: 100)))
                .count > 0)
    }

    @Test func animationRoundTripKeepsDurationsAndLoopCount() throws {
        let image = try coder.decode(Fixtures.data("jxl/5_frames_numbered_jxli.jxl"), options: .init())
        let encoded = try coder.encode(image, as: .jxl, options: .init(lossless: true))
        let back = try coder.decode(encoded, options: .init())
        #expect(back.frameCount == 5)
        #expect(back.durations == image.durations)
        #expect(back.loopCount == image.loopCount)
        #expect(try zip(back.frames, image.frames).allSatisfy { $0.pixels == $1.pixels })
        let still = try coder.encode(image, as: .jxl, options: .init(firstFrameOnly: true))
        #expect(try coder.decode(still, options: .init()).frameCount == 1)
        #expect(!coder.canEncode(to: .png))
    }
}

import Foundation
import Testing
import WebImage
import WITestSupport

/// Every coder that decodes row by row, band by band, event by event or chunk by chunk (WebP) stops when the pool job decoding is
/// cancelled: with `.cancelled`, never with a partial image; the same bytes decode when the job is not cancelled.
@Suite struct DecodeCancellationTests {
    static let coders = WebImage.makeCoders()

    @Test(arguments: [
        "jpeg/progressive-nuke.jpg", "pngsuite/basn6a08.png", "pngsuite/basi6a08.png",
        "gif/animated-red-blue.gif", "tiff/16_bits.tiff", "jxl/3x3_srgb_lossless.jxl",
        "webp/gallery2-4-lossy-alpha.webp",
    ])
    func aCancelledJobsDecodeStops(path: String) async throws {
        let data = try Data(contentsOf: Fixtures.url(path))
        let coders = Self.coders
        let pool = WorkerPool(name: "test.decode", threads: 1)
        defer { pool.shutdown() }
        let error = await CancelledJob.error(on: pool) { () throws(ImageError) in
            try coders.decode(data, options: DecodeOptions(preloadAllFrames: true))
        }
        #expect(error?.code == .cancelled, "\(path): \(String(describing: error))")
        let whole = try await pool.runCancellable { () throws(ImageError) -> Image in
            try coders.decode(data, options: DecodeOptions(preloadAllFrames: true))
        }
        let outside = try coders.decode(data, options: DecodeOptions(preloadAllFrames: true))
        #expect(whole.frameCount == outside.frameCount && whole.pixels == outside.pixels, "\(path)")
    }
}

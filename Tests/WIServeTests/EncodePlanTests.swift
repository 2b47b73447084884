import Foundation
import Testing
import WebImage
@testable import WIServe
@testable import WIServeCore

/// `max_bytes()`: thumbor's search for a quality whose answer fits, step by step on a stand-in encoder.
@Suite struct EncodePlanTests {
    func plan(_ filters: String) throws -> EncodePlan {
        try EncodePlan(
            request: ThumborRequest.parse(path: "/unsafe/filters:\(filters)/example.com/a.jpg"),
            configuration: ServeConfiguration())
    }

    /// `plan.encodeFitting` on an encoder whose answer is 100 bytes per quality point; the qualities asked for.
    func fitting(_ plan: EncodePlan, _ format: ImageFormat) throws -> (bytes: Int, qualities: [Int]) {
        var qualities: [Int] = []
        let data = try plan.encodeFitting(format) { quality in
            qualities.append(quality)
            return Data(count: quality * 100)
        }
        return (data.count, qualities)
    }

    @Test func qualityFallsByQuartersUntilTheAnswerFits() throws {
        // 80 -> 60 -> 45 -> 33: 3,300 bytes is the first under 3,500.
        let fits = try fitting(try plan("max_bytes(3500)"), .jpeg)
        #expect(fits.qualities == [80, 60, 45, 33] && fits.bytes == 3_300)
        let webp = try fitting(try plan("quality(90):max_bytes(5000)"), .webp)
        #expect(webp.qualities == [90, 67, 50] && webp.bytes == 5_000)
        // Under 10 the search gives up: the first answer stands (80 60 45 33 24 18 13, then 9).
        let hopeless = try fitting(try plan("max_bytes(500)"), .jpeg)
        #expect(hopeless.qualities == [80, 60, 45, 33, 24, 18, 13] && hopeless.bytes == 8_000)
        // Already small enough, another format, or no limit: one encoding.
        #expect(try fitting(try plan("max_bytes(9000)"), .jpeg).qualities == [80])
        #expect(try fitting(try plan("max_bytes(100)"), .png).qualities == [80])
        #expect(try fitting(try plan("quality(50)"), .jpeg).qualities == [50])
    }

    /// `--quality`, `--webp-quality`, `--avif-quality` (thumbor's QUALITY, WEBP_QUALITY, AVIF_QUALITY): the
    /// defaults when the URL has no `quality()`, the start of `max_bytes()`'s search.
    @Test func theServersDefaultQualitiesApplyWhenTheURLNamesNone() throws {
        var configuration = ServeConfiguration()
        configuration.quality = 90
        configuration.webpQuality = 70
        let plan = try EncodePlan(
            request: ThumborRequest.parse(path: "/unsafe/filters:max_bytes(100000)/example.com/a.jpg"),
            configuration: configuration)
        #expect([ImageFormat.jpeg, .webp, .avif, .png].map { plan.quality(for: $0) } == [90, 70, 90, 90])
        #expect(plan.encodeOptions(for: .webp, animated: false).quality == 0.7)
        #expect(try fitting(plan, .webp).qualities == [70])
        let named = try EncodePlan(
            request: ThumborRequest.parse(path: "/unsafe/filters:quality(40)/example.com/a.jpg"),
            configuration: configuration)
        #expect([ImageFormat.jpeg, .webp].map { named.quality(for: $0) } == [40, 40])
        configuration.avifQuality = 55
        #expect(configuration.qualityKey == "q90/70/55")
        #expect(ServeConfiguration().qualityKey == "")
    }
}

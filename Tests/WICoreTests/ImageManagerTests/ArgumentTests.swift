import Foundation
import Testing
import WICore
import WITestSupport

/// Decode values a server copies from a query string into the context give a load error 1009, never a trap, and
/// never put the URL on the failed list (the same URL with good values loads).
@Suite struct ArgumentTests {
    @Test(arguments: [
        ("thumbnail", "thumbnail width must be in 0...65536, got -4"),
        ("scale", "scale factor must be a finite number > 0, got nan"),
        ("limit", "scale-down limit bytes must be in 1...\(Int.max), got 0"),
    ])
    func badContextValuesFailTheLoadWithoutBlockingTheURL(_ which: String, _ message: String) async throws {
        let harness = Harness()
        let url = harness.serve("bad-\(which)")
        var context = ImageContext()
        switch which {
        case "thumbnail": context[.thumbnailPixelSize] = PixelSize(width: -4, height: 10)
        case "scale": context[.scaleFactor] = .nan
        default: context[.scaleDownLimitBytes] = 0
        }
        do {
            let result = try await harness.manager.loadImage(with: url, context: context)
            Issue.record("loaded \(result.image) with \(which) out of range")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.message == message)
        }
        #expect(!harness.manager.isFailedURL(url))
        var good = ImageContext()
        good[.thumbnailPixelSize] = PixelSize(width: 4, height: 4)
        let result = try await harness.manager.loadImage(with: url, context: good)
        #expect(result.image.size == PixelSize(width: 4, height: 2))
    }
}

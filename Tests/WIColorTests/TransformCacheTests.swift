import Foundation
import Testing
import WICoderJPEG
import WICore
import WIColor
import WITestSupport

/// `LittleCMSConverter` keeps the transforms it made last: a profile met again converts with the same result.
@Suite struct TransformCacheTests {
    static func preserved(_ fixture: String) throws -> Image {
        try JPEGCoder().decode(Fixtures.data("color/\(fixture)"), options: .init())
    }

    @Test func transformsAreKeptUpToTheCapacity() throws {
        let p3 = try Self.preserved("p3.jpg")
        let adobe = try Self.preserved("adobergb.jpg")
        let converter = LittleCMSConverter(cachedTransforms: 1)
        let first = try #require(try converter.convertToSRGB(p3.pixels, describedBy: p3.metadata, keep16Bit: false))
        #expect(converter.cachedTransformCount == 1)
        let again = try #require(try converter.convertToSRGB(p3.pixels, describedBy: p3.metadata, keep16Bit: false))
        #expect(again == first)
        _ = try converter.convertToSRGB(adobe.pixels, describedBy: adobe.metadata, keep16Bit: false)
        #expect(converter.cachedTransformCount == 1)
        // Without a cache: the same pixels, nothing kept; a bad profile is never kept.
        let uncached = LittleCMSConverter(cachedTransforms: 0)
        #expect(try uncached.convertToSRGB(p3.pixels, describedBy: p3.metadata, keep16Bit: false) == first)
        #expect(uncached.cachedTransformCount == 0)
        let bad = try Self.preserved("bad-profile.jpg")
        let fresh = LittleCMSConverter()
        #expect(try fresh.convertToSRGB(bad.pixels, describedBy: bad.metadata, keep16Bit: false) == nil)
        #expect(fresh.cachedTransformCount == 0)
    }

    @Test func oneTransformServesManyThreadsAtOnce() async throws {
        let p3 = try Self.preserved("p3.jpg")
        let converter = LittleCMSConverter()
        let expected = try #require(try converter.convertToSRGB(p3.pixels, describedBy: p3.metadata, keep16Bit: false))
        let results = try await withThrowingTaskGroup(of: PixelBuffer?.self) { group in
            for _ in 0..<16 {
                group.addTask { try converter.convertToSRGB(p3.pixels, describedBy: p3.metadata, keep16Bit: false) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 16 && results.allSatisfy { $0 == expected })
        #expect(converter.cachedTransformCount == 1)
    }
}

import Foundation
import Testing
import WICore

/// Each HTTP cache policy's decision for fresh, stale, no-cache and must-revalidate entries on a driven clock.
@Suite struct HTTPCachePolicyTests {
    let date = Date(timeIntervalSince1970: 1_000_000)

    func info(_ cacheControl: String) -> HTTPCacheInfo {
        HTTPCacheInfo(headers: ["cache-control": cacheControl, "etag": "\"e\""], now: date)
    }

    @Test func ignoreAlwaysUsesTheCache() {
        #expect(HTTPCachePolicy.ignore.decision(for: info("no-cache"), now: date) == .useCached)
        #expect(HTTPCachePolicy.ignore.decision(for: info("max-age=1"), now: date + 1000) == .useCached)
    }

    @Test func entriesWithoutInfoAreUsed() {
        #expect(HTTPCachePolicy.respect.decision(for: nil, now: date) == .useCached)
        #expect(HTTPCachePolicy.staleWhileRevalidate(maxStale: .seconds(1)).decision(for: nil, now: date) == .useCached)
    }

    @Test func respectRevalidatesOnceStale() {
        let entry = info("max-age=60")
        #expect(HTTPCachePolicy.respect.decision(for: entry, now: date + 59) == .useCached)
        #expect(HTTPCachePolicy.respect.decision(for: entry, now: date + 60) == .revalidate)
        #expect(HTTPCachePolicy.respect.decision(for: info("max-age=60, no-cache"), now: date) == .revalidate)
    }

    @Test func staleWhileRevalidateServesWithinMaxStale() {
        let policy = HTTPCachePolicy.staleWhileRevalidate(maxStale: .seconds(30))
        let entry = info("max-age=60")
        #expect(policy.decision(for: entry, now: date + 10) == .useCached)
        #expect(policy.decision(for: entry, now: date + 60) == .useCachedAndRevalidate)
        #expect(policy.decision(for: entry, now: date + 90) == .useCachedAndRevalidate)
        #expect(policy.decision(for: entry, now: date + 91) == .revalidate)
        #expect(policy.decision(for: info("max-age=60, must-revalidate"), now: date + 61) == .revalidate)
        #expect(policy.decision(for: info("no-cache"), now: date) == .revalidate)
    }
}

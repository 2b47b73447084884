import Foundation
import Testing
import WICore

/// HTTPCacheInfo reads validators and freshness from a response head, ages on a clock the test drives, renews on
/// a 304, and round-trips through its compact serialized form.
@Suite struct HTTPCacheInfoTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT.
    let date = Date(timeIntervalSince1970: 784_111_777)

    @Test func parsesIMFFixdate() {
        let info = HTTPCacheInfo(headers: ["date": "Sun, 06 Nov 1994 08:49:37 GMT"], now: .distantPast)
        #expect(info.date == date)
        let leap = HTTPCacheInfo(headers: ["date": "Thu, 29 Feb 2024 23:59:59 GMT"], now: .distantPast)
        #expect(leap.date == Date(timeIntervalSince1970: 1_709_251_199))
    }

    @Test func badDateFallsBackToReceiptTime() {
        for bad in [
            "", "yesterday", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 32 Nov 1994 08:49:37 GMT",
            "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:00:00 GMT",
        ] {
            #expect(HTTPCacheInfo(headers: ["date": bad], now: date).date == date)
        }
    }

    @Test func maxAgeGivesFreshnessOnTheClock() {
        let info = HTTPCacheInfo(headers: ["cache-control": "public, max-age=60", "etag": "\"v1\""], now: date)
        #expect(info.freshnessLifetime == 60)
        #expect(info.etag == "\"v1\"")
        #expect(info.isFresh(at: date.addingTimeInterval(59)))
        #expect(!info.isFresh(at: date.addingTimeInterval(60)))
        #expect(info.staleness(at: date.addingTimeInterval(90)) == 30)
        #expect(info.staleness(at: date.addingTimeInterval(10)) == 0)
    }

    @Test func sMaxAgeWinsOverMaxAgeAndExpires() {
        let info = HTTPCacheInfo(
            headers: [
                "cache-control": "max-age=10, s-maxage=\"300\"",
                "expires": "Sun, 06 Nov 1994 09:49:37 GMT",
            ], now: date)
        #expect(info.freshnessLifetime == 300)
    }

    @Test func expiresCountsFromTheDateHeader() {
        let info = HTTPCacheInfo(
            headers: [
                "date": "Sun, 06 Nov 1994 08:49:37 GMT",
                "expires": "Sun, 06 Nov 1994 09:49:37 GMT",
            ], now: .distantFuture)
        #expect(info.freshnessLifetime == 3600)
        #expect(HTTPCacheInfo(headers: ["expires": "0"], now: date).freshnessLifetime == 0)
    }

    @Test func noFreshnessInformationIsStale() {
        let info = HTTPCacheInfo(headers: ["last-modified": "Sat, 05 Nov 1994 08:49:37 GMT"], now: date)
        #expect(info.freshnessLifetime == nil)
        #expect(!info.isFresh(at: date))
        #expect(info.hasValidators)
        #expect(!HTTPCacheInfo(headers: [:], now: date).hasValidators)
    }

    @Test func directivesAndFlags() {
        let info = HTTPCacheInfo(
            headers: [
                "cache-control": "No-Cache, no-store, must-revalidate, "
                    + "max-age=100, stale-while-revalidate=30"
            ], now: date)
        #expect(info.noCache && info.noStore && info.mustRevalidate)
        #expect(info.staleWhileRevalidate == 30)
        #expect(!info.isFresh(at: date))  // no-cache: never fresh
        #expect(HTTPCacheInfo(headers: ["pragma": "no-cache"], now: date).noCache)
        let bad = HTTPCacheInfo(headers: ["cache-control": "max-age=-5, stale-while-revalidate=x"], now: date)
        #expect(bad.freshnessLifetime == nil && bad.staleWhileRevalidate == nil)
        let huge = HTTPCacheInfo(headers: ["cache-control": "max-age=99999999999999999999999"], now: date)
        #expect(huge.freshnessLifetime == Int(Int32.max))
    }

    @Test func renewalKeepsValidatorsTheNotModifiedAnswerOmits() {
        let stored = HTTPCacheInfo(
            headers: [
                "etag": "\"a\"", "last-modified": "Sat, 05 Nov 1994 08:49:37 GMT",
                "cache-control": "max-age=10",
            ], now: date)
        let later = date.addingTimeInterval(100)
        let renewed = stored.renewed(by: ["cache-control": "max-age=20", "etag": "\"b\""], now: later)
        #expect(renewed.etag == "\"b\"")
        #expect(renewed.lastModified == "Sat, 05 Nov 1994 08:49:37 GMT")
        #expect(renewed.date == later)
        #expect(renewed.freshnessLifetime == 20)
        #expect(renewed.isFresh(at: later.addingTimeInterval(19)))
    }

    @Test func serializationRoundTrips() throws {
        let full = HTTPCacheInfo(
            etag: "W/\"x=1\"", lastModified: "Sat, 05 Nov 1994 08:49:37 GMT", date: date,
            freshnessLifetime: 60, staleWhileRevalidate: 5, noCache: true, noStore: false,
            mustRevalidate: true)
        #expect(HTTPCacheInfo(serialized: full.serialized()) == full)
        let bare = HTTPCacheInfo(date: date)
        #expect(String(decoding: bare.serialized(), as: UTF8.self) == "v=1\nd=784111777")
        #expect(HTTPCacheInfo(serialized: bare.serialized()) == bare)
    }

    @Test func serializationRejectsForeignData() {
        for text in ["", "v=2\nd=1", "v=1", "v=1\nd=x", "v=1\nd=1\nf=-1", "v=1\nd=1\nx=z", "ve=1\nd=1"] {
            #expect(HTTPCacheInfo(serialized: Data(text.utf8)) == nil, "\(text)")
        }
        #expect(HTTPCacheInfo(serialized: Data([0xFF, 0xFE])) == nil)
    }
}

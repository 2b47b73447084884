import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WICore
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// The caching and CORS headers as thumbor 7.8 sends them (MAX_AGE, `max_age()`, ACCESS_CONTROL_ALLOW_ORIGIN_HEADER)
/// and its PROGRESSIVE_JPEG, against its own answers (Tests/Fixtures/serve-headers/make_reference.py).
@Suite(.serialized) struct ServeHeadersTests {
    typealias H = ServeHarness

    struct Row {
        var settings: String
        var path: String
        var status: Int
        var cacheControl: String?
        var expiresAfter: Int?
        var allowOrigin: String?
        var frame: String
    }

    static func rows() throws -> [Row] {
        let text = try String(contentsOf: Fixtures.url("serve-headers/thumbor-headers-reference.tsv"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let f = line.split(separator: "\t").map(String.init)
            return Row(
                settings: f[0], path: f[1], status: Int(f[2])!, cacheControl: f[3] == "-" ? nil : f[3],
                expiresAfter: Int(f[4]), allowOrigin: f[5] == "-" ? nil : f[5], frame: f[6])
        }
    }

    /// The JPEG's start-of-frame kind: `baseline` (SOF0/1) or `progressive` (SOF2).
    static func frameKind(_ data: Data) -> String {
        let bytes = [UInt8](data)
        var i = 2
        while i + 4 <= bytes.count {
            switch bytes[i + 1] {
            case 0xC0, 0xC1: return "baseline"
            case 0xC2: return "progressive"
            default: i += 2 + Int(bytes[i + 2]) << 8 + Int(bytes[i + 3])
            }
        }
        return "-"
    }

    @Test func cachingCORSAndProgressiveAreThumbors() async throws {
        let rows = try Self.rows()
        #expect(rows.count == 12)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wi-headers-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try H.coders.encode(
            try H.solid(width: 40, height: 20, RGBAColor(red: 0, green: 128, blue: 255)), as: .jpeg,
            options: EncodeOptions(quality: 0.9))
        try photo.write(to: folder.appendingPathComponent("photo.jpg"))
        // thumbor's default is progressive; ours is baseline (speed, theDefaultJPEGIsBaseline), so every row but
        // PROGRESSIVE_JPEG = False runs with --progressive-jpeg.
        for settings in Set(rows.map(\.settings)).sorted() {
            let configuration = H.configuration { c in
                c.fileRoot = folder.path
                switch settings {
                case "MAX_AGE = 3600": c.maxAge = 3600
                case "ACCESS_CONTROL_ALLOW_ORIGIN_HEADER = '*'": c.accessControlAllowOrigin = "*"
                default: break
                }
                c.progressiveJPEG = settings != "PROGRESSIVE_JPEG = False"
            }
            let h = try await ServeHarness()
            try await h.withServer(configuration) { _, client in
                for row in rows where row.settings == settings {
                    let before = Date()
                    let response = try await client.execute(uri: "/unsafe/\(row.path)", method: .get)
                    let after = Date()
                    let label = "\(settings) \(row.path)"
                    #expect(response.status.code == row.status, "\(label)")
                    #expect(response.headers[.cacheControl] == row.cacheControl, "\(label)")
                    #expect(response.headers[.accessControlAllowOrigin] == row.allowOrigin, "\(label)")
                    #expect(Self.frameKind(H.data(response)) == row.frame, "\(label)")
                    if let seconds = row.expiresAfter {
                        // Now + max-age, in whole seconds, at some moment of the request.
                        let expires = try #require(
                            response.headers[.expires].flatMap(HTTPCacheInfo.parseHTTPDate), "\(label)")
                        let low = before.addingTimeInterval(Double(seconds)).timeIntervalSince1970.rounded(.down)
                        let high = after.addingTimeInterval(Double(seconds)).timeIntervalSince1970
                        #expect((low...high).contains(expires.timeIntervalSince1970), "\(label)")
                    } else {
                        #expect(response.headers[.expires] == nil, "\(label)")
                    }
                }
            }
        }
    }

    /// thumbor's ENABLE_ETAGS = False (`--no-etags`): no ETag, and an If-None-Match that would match is passed
    /// over (200 with the body); with ETags on (the default) the same request is a 304.
    @Test func etagsOffSendNoneAndPassOverIfNoneMatch() async throws {
        for etags in [true, false] {
            let h = try await ServeHarness()
            try await h.withServer(H.configuration { $0.etags = etags }) { _, client in
                let uri = "/unsafe/40x20/\(h.url("/stripes.jpg"))"
                let first = try await client.execute(uri: uri, method: .get)
                #expect(first.status.code == 200)
                #expect((first.headers[.eTag] != nil) == etags)
                let again = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "*"])
                #expect(again.status.code == (etags ? 304 : 200))
                #expect(H.data(again).count == (etags ? 0 : H.data(first).count))
            }
        }
    }

    @Test func theDefaultJPEGIsBaseline() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration()) { _, client in
            let response = try await client.execute(uri: "/unsafe/\(h.url("/stripes.jpg"))", method: .get)
            #expect(Self.frameKind(H.data(response)) == "baseline")
        }
    }

    @Test func httpDatesRoundTrip() throws {
        for seconds in [0, 784_111_777, 951_782_400, 1_700_000_000, 4_102_444_800 - 1] {
            let date = Date(timeIntervalSince1970: Double(seconds))
            let text = HTTPCacheInfo.formatHTTPDate(date)
            #expect(HTTPCacheInfo.parseHTTPDate(text) == date, "\(text)")
        }
        #expect(
            HTTPCacheInfo.formatHTTPDate(Date(timeIntervalSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(
            HTTPCacheInfo.formatHTTPDate(Date(timeIntervalSince1970: 951_782_400)) == "Tue, 29 Feb 2000 00:00:00 GMT")
        // The year takes its four digits; past 9999 it takes what it needs.
        #expect(
            HTTPCacheInfo.formatHTTPDate(Date(timeIntervalSince1970: -58_380_393_601))
                == "Sun, 31 Dec 0119 23:59:59 GMT")
        #expect(
            HTTPCacheInfo.formatHTTPDate(Date(timeIntervalSince1970: 253_402_300_800))
                == "Sat, 01 Jan 10000 00:00:00 GMT")
    }
}

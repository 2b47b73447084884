import Foundation
import Testing
import WebImage
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// thumbor's `meta/`: the JSON of the source and the operations, against thumbor 7.8's own answers for 46 paths on
/// two sources (Tests/Fixtures/serve-meta/make_reference.py, a real thumbor server): every value equal (thumbor
/// writes some integers as `100.0`), keys in thumbor's order.
@Suite struct ServeMetaTests {
    /// The reference's source: white, with a red rectangle 20 pixels in from every side (for `trim`).
    static func source(width: Int, height: Int) throws -> Image {
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for y in 20..<(height - 20) {
            for x in 20..<(width - 20) {
                let at = (y * width + x) * 4
                (bytes[at], bytes[at + 1], bytes[at + 2]) = (200, 30, 30)
            }
        }
        return Image(pixels: try PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes))
    }

    /// A JSON value as text with sorted keys and every number as a Double, so `100` and `100.0` compare equal.
    static func canonical(_ value: Any) -> String {
        switch value {
        case let object as [String: Any]:
            return "{" + object.keys.sorted().map { "\($0):\(canonical(object[$0]!))" }.joined(separator: ",") + "}"
        case let array as [Any]: return "[" + array.map(canonical).joined(separator: ",") + "]"
        case let text as String: return "\"\(text)\""
        case let number as NSNumber: return "\(number.doubleValue)"
        default: return "\(value)"
        }
    }

    static func canonical(json text: String) throws -> String {
        canonical(try JSONSerialization.jsonObject(with: Data(text.utf8)))
    }

    @Test func matchesThumbor() throws {
        let text = try String(contentsOf: Fixtures.url("serve-meta/thumbor-meta-reference.tsv"), encoding: .utf8)
        let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        #expect(rows.count == 46)
        var sources: [String: Image] = [:]
        for fields in rows {
            let size = fields[0].split(separator: "x").compactMap { Int($0) }
            let source = try sources[String(fields[0])] ?? Self.source(width: size[0], height: size[1])
            sources[String(fields[0])] = source
            let request = try ThumborRequest.parse(path: "/unsafe/meta/\(fields[1])\(fields[0]).png")
            #expect(request.meta)
            let transformer = ThumborTransformer(request: request, pixelLimit: 50_000_000)
            let meta = try ThumborMeta(
                url: request.imagePath, transformer: transformer, loaded: source,
                final: try transformer.transform(source))
            #expect(meta.json.hasPrefix("{\"thumbor\": {\"source\": {\"url\": \"\(fields[0]).png\", \"width\": "))
            #expect(
                try Self.canonical(json: meta.json) == (try Self.canonical(json: String(fields[2]))),
                "\(fields[0]) \(fields[1])")
        }
    }

    /// Through the service: the JSON, the JSONP form with the callback taken out of the source's query, a callback
    /// that is no JavaScript name refused, and `meta/` signed like any path.
    @Test func theServiceAnswersJSONAndItsCallbackForm() async throws {
        let h = try await ServeHarness()
        try await h.withServer(ServeHarness.configuration()) { _, client in
            let plain = try await client.execute(uri: "/unsafe/meta/100x100/\(h.url("/stripes.png"))", method: .get)
            #expect(plain.status.code == 200)
            #expect(plain.headers[.contentType] == "application/json")
            let json = String(decoding: ServeHarness.data(plain), as: UTF8.self)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let target = try #require((object["thumbor"] as? [String: Any])?["target"] as? [String: Any])
            #expect(target["width"] as? Int == 100 && target["height"] as? Int == 100)
            let jsonp = try await client.execute(
                uri: "/unsafe/meta/100x100/\(h.url("/stripes.png"))?callback=show.thumb_1", method: .get)
            #expect(jsonp.status.code == 200)
            #expect(jsonp.headers[.contentType] == "text/javascript")
            #expect(String(decoding: ServeHarness.data(jsonp), as: UTF8.self) == "show.thumb_1(\(json));")
            let hostile = try await client.execute(
                uri: "/unsafe/meta/100x100/\(h.url("/stripes.png"))?callback=alert(1)", method: .get)
            #expect(hostile.status.code == 400)
        }
    }
}

import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WebImage
import WITestServer
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// thumbor's answers by default: filters it skips (an unknown name, arguments its patterns do not match, a value
/// that makes it return) are skipped, values it clamps are clamped, a bad signature, an unsafe URL it does not
/// allow and a source over the pixel limit are 400. Every expectation is thumbor 7.8's own answer on the same
/// images, the stripes and a 24x16 pattern with every kind of level (Tests/Fixtures/serve-lenient/
/// make_reference.py): status, size, format, max-age and every pixel; and the paths where we knowingly answer
/// otherwise are checked to still differ.
@Suite struct ServeLenientFilterTests {
    typealias H = ServeHarness

    /// One line of the reference table.
    struct Answer: Equatable, CustomStringConvertible {
        var status: Int
        var width = "-", height = "-", format = "-", maxAge = "-", pixels = "-"
        var description: String { "\(status) \(width)x\(height) \(format) max-age \(maxAge) pixels \(pixels)" }
    }

    /// (configuration, path, thumbor's answer) from the reference table.
    static func rows() throws -> [(String, String, Answer)] {
        let text = try String(contentsOf: Fixtures.url("serve-lenient/thumbor-lenient-reference.tsv"), encoding: .utf8)
        return try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            try #require(fields.count == 8, "\(line)")
            return (
                fields[0], fields[1],
                Answer(
                    status: try #require(Int(fields[2])), width: fields[3], height: fields[4],
                    format: fields[5], maxAge: fields[6], pixels: fields[7])
            )
        }
    }

    /// Our answer in the table's terms (the pixels' SHA-256 for PNG answers only, as thumbor's are compared).
    static func answer(_ response: HummingbirdTesting.TestResponse) throws -> Answer {
        guard response.status == .ok else { return Answer(status: response.status.code) }
        let data = H.data(response)
        let image = try H.image(response)
        let format = ImageFormat.detect(data).identifier
        let control = response.headers[.cacheControl] ?? ""
        let maxAge = control.split(separator: "max-age=").last.map { String($0.prefix { $0.isNumber }) } ?? "-"
        let pixels = try image.frame(at: 0).pixels
        #expect(pixels.format == .rgba8)
        return Answer(
            status: 200, width: "\(image.width)", height: "\(image.height)", format: format, maxAge: maxAge,
            pixels: format == "png" ? SHA256.hex(pixels.packedBytes()) : "-")
    }

    @Test func filtersAsThumborSkipsAndClampsThem() async throws {
        let rows = try Self.rows()
        #expect(rows.count(where: { $0.0 == "unsafe" }) == 37 && rows.count(where: { $0.0 == "pattern" }) == 23)
        let h = try await ServeHarness()
        let pattern = try H.coders.encode(
            Image(pixels: try ThumborReference.pattern(width: 24, height: 16)), as: .png,
            options: EncodeOptions())
        h.origin.route("/pattern.png") { _ in WITestServer.TestResponse(body: pattern, contentType: "image/png") }
        try await h.withServer(H.configuration()) { _, client in
            for (kind, path, expected) in rows where kind == "unsafe" || kind == "pattern" {
                let image = h.url(kind == "unsafe" ? "/stripes.png" : "/pattern.png")
                let response = try await client.execute(uri: "/unsafe/\(path)\(image)", method: .get)
                #expect(try Self.answer(response) == expected, "\(path)")
            }
            // Where we knowingly answer otherwise (thumbor fails with a 500, or computes with arguments we skip
            // the filter for: docs/SERVE.md): the source as it is. A row that starts to match belongs above.
            let source = try Self.answer(
                try await client.execute(uri: "/unsafe/\(h.url("/pattern.png"))", method: .get))
            for (kind, path, expected) in rows where kind == "differs" {
                let response = try await client.execute(uri: "/unsafe/\(path)\(h.url("/pattern.png"))", method: .get)
                let answer = try Self.answer(response)
                #expect(answer != expected && answer == source, "\(path)")
            }
        }
    }

    /// A skipped filter is served as thumbor serves it, and named in a debug line for the operator.
    @Test func skippedFiltersAreLoggedAtDebug() async throws {
        let h = try await ServeHarness()
        let log = CapturingLogHandler.Store()
        var logger = CapturingLogHandler.logger(log)
        logger.logLevel = .debug
        try await h.withServer(H.configuration(), logger: logger) { _, client in
            let path = "/unsafe/filters:sepia():blur(2.5):quality(90):rotate(45)/\(h.url("/stripes.png"))"
            let response = try await client.execute(uri: path, method: .get)
            #expect(response.status == .ok)
            let skipped = log.all.filter { $0.message == "filters skipped as thumbor skips them" }
            #expect(skipped.count == 1 && skipped.first?.level == .debug)
            #expect(skipped.first?.metadata["skipped"] == "sepia():blur(2.5):rotate(45)")
            #expect(skipped.first?.metadata["path"] == path)
        }
    }

    @Test func strictRefusesWhatThumborSkips() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration { $0.strict = true }) { _, client in
            for (path, reason) in [
                ("blur(500)", "blur() argument 1 must be an integer in 0...150, got '500'"),
                ("rotate(181)", "rotate() takes a multiple of 90 degrees, got 181"),
                ("format(asdf)", "format() must be one of jpeg, png, webp, avif, gif, heic, got 'asdf'"),
                ("proportion(10000)", "proportion() argument 1 must be a number in 0.0...1.0, got '10000'"),
                ("focal()", "focal() takes 1 argument(s), got 0"),
                ("sepia()", "unknown filter 'sepia'"),
            ] {
                let response = try await client.execute(
                    uri: "/unsafe/filters:\(path)/\(h.url("/stripes.png"))", method: .get)
                #expect(response.status == .badRequest && H.text(response) == reason + "\n", "\(path)")
            }
        }
    }

    @Test func signatureAndPixelLimitAnswersAreThumbors() async throws {
        let rows = try Self.rows().filter { ["signed", "pixels"].contains($0.0) }
        #expect(rows.map(\.1) == ["signed", "bad-signature", "unsafe", "over-the-limit"])
        let expected = Dictionary(uniqueKeysWithValues: rows.map { ($0.1, $0.2.status) })
        let h = try await ServeHarness()
        let image = h.url("/stripes.png")
        try await h.withServer(H.configuration { $0.allowUnsafe = false }, keepOrigin: true) { _, client in
            let signed = try await client.execute(
                uri: "/\(ThumborSignature(key: "k").sign(image))/\(image)", method: .get)
            #expect(signed.status.code == expected["signed"])
            let bad = try await client.execute(
                uri: "/\(ThumborSignature(key: "k").sign("other.png"))/\(image)", method: .get)
            #expect(bad.status.code == expected["bad-signature"])
            let unsafe = try await client.execute(uri: "/unsafe/\(image)", method: .get)
            #expect(unsafe.status.code == expected["unsafe"])
        }
        try await h.withServer(H.configuration { $0.maxPixels = 30_000 }) { _, client in
            let over = try await client.execute(uri: "/unsafe/\(image)", method: .get)
            #expect(over.status.code == expected["over-the-limit"])
        }
    }
}

import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WICore
import WITestServer
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// The answer's format and `Vary` as thumbor 7.8 gives them: its AUTO_WEBP, AUTO_AVIF, AUTO_JPG, AUTO_PNG,
/// AUTO_HEIF and AUTO_PNG_TO_JPG settings, in its order, for still and animated GIFs, PNG with and without
/// transparency, JPEG and TIFF sources, under six Accept headers, with `format()` and `autojpg()` (432 answers of
/// thumbor's, Tests/Fixtures/serve-negotiation/make_reference.py).
@Suite(.serialized) struct ServeNegotiationTests {
    typealias H = ServeHarness

    struct Row {
        var settings: String
        var accept: String?
        var path: String
        var status: Int
        var contentType: String
        var vary: String?
    }

    static func rows() throws -> [Row] {
        let text = try String(
            contentsOf: Fixtures.url("serve-negotiation/thumbor-negotiation-reference.tsv"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Row(
                settings: f[0], accept: f[1] == "-" ? nil : f[1], path: f[2], status: Int(f[3])!, contentType: f[4],
                vary: f[5] == "-" ? nil : f[5])
        }
    }

    /// The service's configuration for thumbor's `settings` (`\n`-separated assignments).
    static func configuration(_ settings: String) -> ServeConfiguration {
        H.configuration { c in
            c.fileRoot = Fixtures.url("serve-negotiation").path
            for line in settings.components(separatedBy: "\\n") {
                switch line {
                case "AUTO_WEBP = True": c.autoWebP = true
                case "AUTO_AVIF = True": c.autoAVIF = true
                case "AUTO_JPG = True": c.autoJPG = true
                case "AUTO_PNG = True": c.autoPNG = true
                case "AUTO_HEIF = True": c.autoHEIF = true
                case "AUTO_PNG_TO_JPG = True": c.autoPNGToJPG = true
                default: break
                }
            }
        }
    }

    /// thumbor answers HEIF as `image/heif`; WebImage names HEVC-coded HEIF `image/heic` (its own name for the
    /// format it encodes).
    static func format(ofContentType type: String) -> String { type == "image/heif" ? "image/heic" : type }

    @Test func formatsAndVaryAreThumbors() async throws {
        let rows = try Self.rows()
        #expect(rows.count == 432)
        let compared = Locked(0)
        for settings in Set(rows.map(\.settings)).sorted() {
            let h = try await ServeHarness()
            try await h.withServer(Self.configuration(settings)) { _, client in
                for row in rows where row.settings == settings {
                    var headers = HTTPFields()
                    if let accept = row.accept { headers[.accept] = accept }
                    let response = try await client.execute(uri: "/unsafe/\(row.path)", method: .get, headers: headers)
                    let label = "\(settings) | \(row.accept ?? "-") | \(row.path)"
                    #expect(response.status.code == row.status, "\(label)")
                    #expect(response.headers[.contentType] == Self.format(ofContentType: row.contentType), "\(label)")
                    // thumbor sends Vary only for AUTO_WEBP, AUTO_AVIF and AUTO_HEIF; an answer that AUTO_JPG or
                    // AUTO_PNG chose from the Accept header varies with it too, and says so (docs/SERVE.md).
                    let acceptDependent = settings == "AUTO_JPG = True" || settings == "AUTO_PNG = True"
                    let expectedVary =
                        acceptDependent && !row.path.contains("format(") && !row.path.hasSuffix("anim.gif")
                        ? "Accept" : row.vary
                    #expect(response.headers[.vary] == expectedVary, "\(label)")
                    compared.set(compared.value + 1)
                }
            }
        }
        #expect(compared.value == 432)
    }

    @Test func animatedGIFsAreFoundAsThumborFindsThem() throws {
        let animated = try Data(contentsOf: Fixtures.url("serve-negotiation/anim.gif"))
        let still = try Data(contentsOf: Fixtures.url("serve-negotiation/still.gif"))
        #expect(OutputFormat.isAnimatedGIF(animated))
        #expect(!OutputFormat.isAnimatedGIF(still))
        // Cut anywhere: no read past the end; animated only from the second image's descriptor on, and then for
        // every longer prefix.
        let found = (0...animated.count).filter { OutputFormat.isAnimatedGIF(animated.prefix($0)) }
        let first = try #require(found.first)
        #expect(found == Array(first...animated.count))
        #expect(first > 13 && first < animated.count)
        #expect(!OutputFormat.isAnimatedGIF(Data("GIF89a".utf8)))
        #expect(!OutputFormat.isAnimatedGIF(Data(repeating: 0xFF, count: 64)))
    }

    @Test func autoJPGOnlyForOpaqueStills() {
        #expect(OutputFormat.convertsPNGToJPG(configured: true, filter: nil))
        #expect(!OutputFormat.convertsPNGToJPG(configured: false, filter: nil))
        #expect(OutputFormat.acceptsJPEG("text/html,*/*;q=0.8"))
        #expect(OutputFormat.acceptsJPEG("image/jpeg"))
        #expect(!OutputFormat.acceptsJPEG("image/webp,image/png"))
        #expect(!OutputFormat.acceptsJPEG(nil))
    }
}

/// SVG sources against thumbor 7.8 with cairosvg (Tests/Fixtures/serve-svg/make_reference.py): answered as PNG (and
/// JPEG under AUTO_PNG_TO_JPG when opaque), as thumbor serves what cairosvg made, at thumbor's sizes, lengths in
/// inches at SVG_DPI 150 (`--svg-dpi`); a box of another aspect than the document's is drawn letterboxed, with
/// transparent bars, so that answer stays PNG under AUTO_PNG_TO_JPG (the pixels: ServeSVGTests).
extension ServeNegotiationTests {
    @Test func svgSourcesAreAnsweredAsThumborAnswersThem() async throws {
        let text = try String(contentsOf: Fixtures.url("serve-svg/thumbor-svg-reference.tsv"), encoding: .utf8)
        let rows = ServeBlurTests.rows(text)
        #expect(rows.count == 42)
        let h = try await ServeHarness()
        for name in ["px.svg", "inches.svg", "viewbox.svg"] {
            let body = try Data(contentsOf: Fixtures.url("serve-svg/\(name)"))
            h.origin.route("/\(name)") { _ in WITestServer.TestResponse(body: body, contentType: "image/svg+xml") }
        }
        for auto in [false, true] {
            try await h.withServer(ServeHarness.configuration { $0.autoPNGToJPG = auto }, keepOrigin: !auto) {
                _, client in
                for fields in rows where fields[0] == (auto ? "True" : "False") {
                    let path = String(fields[1])
                    let image = path.split(separator: "/").last.map(String.init) ?? path
                    let prefix = path.dropLast(image.count)
                    let response = try await client.execute(uri: "/unsafe/\(prefix)\(h.url("/\(image)"))", method: .get)
                    let data = ServeHarness.data(response)
                    #expect(response.status.code == 200, "\(path): \(String(decoding: data, as: UTF8.self))")
                    let decoded = try ServeHarness.coders.decode(data, options: DecodeOptions())
                    let format = ImageFormat.detect(data) == .png ? "PNG" : "JPEG"
                    let answer = "\(format) \(decoded.width)x\(decoded.height)"
                    let expected = "\(fields[2]) \(fields[3])x\(fields[4])"
                    #expect(answer == expected, "AUTO_PNG_TO_JPG \(auto) \(path)")
                }
            }
        }
    }
}

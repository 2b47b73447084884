import Foundation
import HummingbirdTesting
import Testing
import WICore
import WITestServer
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// SVG sources drawn as thumbor 7.8 draws them: cairosvg renders the document straight into the request's width and
/// height (after MAX_WIDTH), letterboxed when the aspect differs, and thumbor's transform then works on that
/// rendering. 28 of thumbor's answers (Tests/Fixtures/serve-svg/make_reference.py: other aspects, fit-in,
/// full-fit-in, adaptive-fit-in, flips, a side of 0, smart, a manual crop, trim, alignment, filters after,
/// MAX_WIDTH, SVG watermarks, which thumbor also draws into the request's box) compared pixel by pixel, in process and in the sandboxed decode workers; `meta/` reports the
/// rendering's size as thumbor's does.
@Suite(.serialized) struct ServeSVGTests {
    /// The answers thumbor resamples after rendering (a manual crop, `trim`, then the fill to 200x200): Pillow's
    /// Lanczos (thumbor's) rings at the red edge where our resampler does not; measured 44.3 and 45.6 dB, bound
    /// 40 dB. Every other answer is equal pixel for pixel: librsvg draws with cairo, as cairosvg does, and the
    /// coder draws at the box's resolution, as cairosvg does, so the edges' coverage is the same.
    static let resampled: [String: Double] = ["10x10:60x60/200x200/px.svg": 40, "trim/200x200/px.svg": 40]

    /// PSNR in dB over premultiplied RGBA8 (each colour times its alpha): a nearly transparent pixel's colour,
    /// which no one sees, weighs as little as its alpha (Pillow's Lanczos rings into the bars with alpha 4-8 at full
    /// colour where our resampler leaves them clear); infinity when equal.
    static func premultipliedPSNR(_ a: PixelBuffer, _ b: PixelBuffer) throws -> Double {
        let x = try a.converted(to: .premultipliedRGBA8).packedBytes()
        let y = try b.converted(to: .premultipliedRGBA8).packedBytes()
        let sum = zip(x, y).reduce(0.0) { $0 + Double((Int($1.0) - Int($1.1)) * (Int($1.0) - Int($1.1))) }
        return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / Double(x.count)))
    }

    static func rows() throws -> [[Substring]] {
        let text = try String(contentsOf: Fixtures.url("serve-svg/thumbor-svg-pixels.tsv"), encoding: .utf8)
        return ServeBlurTests.rows(text)
    }

    static func harness() async throws -> ServeHarness {
        let h = try await ServeHarness()
        for name in ["px.svg", "inches.svg", "viewbox.svg"] {
            let body = try Data(contentsOf: Fixtures.url("serve-svg/\(name)"))
            h.origin.route("/\(name)") { _ in WITestServer.TestResponse(body: body, contentType: "image/svg+xml") }
        }
        let white = try ServeHarness.coders.encode(
            ServeHarness.solid(width: 300, height: 300, RGBAColor(red: 255, green: 255, blue: 255, alpha: 255)),
            as: .png, options: EncodeOptions())
        h.origin.route("/white.png") { _ in WITestServer.TestResponse(body: white, contentType: "image/png") }
        return h
    }

    /// `/unsafe/<options><origin URL of the image>` for a reference path such as `fit-in/50x50/px.svg`.
    static func uri(_ path: String, _ h: ServeHarness) -> String {
        let image = path.split(separator: "/").last.map(String.init) ?? path
        var options = String(path.dropLast(image.count))
        for name in ["px.svg", "viewbox.svg"] {  // watermarks
            options = options.replacingOccurrences(of: "(\(name),", with: "(\(h.url("/\(name)")),")
        }
        return "/unsafe/\(options)\(h.url("/\(image)"))"
    }

    @Test(arguments: [ServeConfiguration.Isolation.none, .uncancellable])
    func answersAreThumborsPixels(isolation: ServeConfiguration.Isolation) async throws {
        let rows = try Self.rows().filter { $0[2] != "JSON" }
        #expect(rows.count == 28)
        let h = try await Self.harness()
        for maxWidth in [0, 100] {
            let configuration = ServeHarness.configuration {
                $0.maxWidth = maxWidth
                $0.isolation = isolation
                if isolation != .none { $0.workerCommand = [CommandRunner.productPath("wi-hostile-worker")] }
            }
            try await h.withServer(configuration, keepOrigin: maxWidth == 0) { _, client in
                for fields in rows where (fields[0] == "MAX_WIDTH = 100") == (maxWidth == 100) {
                    let path = String(fields[1])
                    let response = try await client.execute(uri: Self.uri(path, h), method: .get)
                    let data = ServeHarness.data(response)
                    #expect(response.status.code == 200, "\(path): \(String(decoding: data, as: UTF8.self))")
                    #expect(ImageFormat.detect(data) == .png, "\(path)")
                    let ours = try ServeHarness.coders.decode(data, options: DecodeOptions())
                    let theirs = try ServeHarness.coders.decode(
                        Data(contentsOf: Fixtures.url("serve-svg/answers/\(fields[6])")), options: DecodeOptions())
                    #expect(ours.size == PixelSize(width: Int(fields[3])!, height: Int(fields[4])!), "\(path)")
                    guard ours.size == theirs.size else { continue }
                    let psnr = try Self.premultipliedPSNR(ours.pixels, theirs.pixels)
                    #expect(psnr >= Self.resampled[path] ?? .infinity, "\(path): \(psnr) dB")
                }
            }
        }
    }

    /// The request's sides after `--max-width` and `--max-height`, as thumbor's handler hands them to cairosvg; none
    /// for 0x0 and `orig` (thumbor answers 500 there; the document's own size here, decision 0087).
    @Test func theViewportIsTheRequestsSidesAfterTheMaximums() throws {
        func viewport(_ path: String, maxWidth: Int = 0, maxHeight: Int = 0) throws -> PixelSize? {
            let request = try ThumborRequest.parse(path: "/unsafe/\(path)a.org/a.svg")
            let configuration = ServeHarness.configuration {
                $0.maxWidth = maxWidth
                $0.maxHeight = maxHeight
            }
            return EncodePlan.vectorViewport(of: request, configuration: configuration)
        }
        #expect(try viewport("fit-in/-300x-200/smart/") == PixelSize(width: 300, height: 200))
        #expect(try viewport("10x10:60x60/300x0/") == PixelSize(width: 300, height: 0))
        #expect(try viewport("300x200/", maxWidth: 100) == PixelSize(width: 100, height: 200))
        #expect(try viewport("0x200/", maxWidth: 100, maxHeight: 150) == PixelSize(width: 0, height: 150))
        #expect(try viewport("99999x0/") == PixelSize(width: ImageCoding.Geometry.maximumSide, height: 0))
        #expect(try viewport("") == nil)
        #expect(try viewport("0x0/") == nil)
        #expect(try viewport("origx200/") == nil)
        #expect(try viewport("200xorig/") == nil)
    }

    @Test func origDrawsTheDocumentAtItsOwnSize() async throws {
        let h = try await Self.harness()
        try await h.withServer(ServeHarness.configuration()) { _, client in
            let response = try await client.execute(uri: Self.uri("origx200/px.svg", h), method: .get)
            #expect(response.status.code == 200)
            let image = try ServeHarness.coders.decode(ServeHarness.data(response), options: DecodeOptions())
            #expect(image.size == PixelSize(width: 120, height: 200))
        }
    }

    /// A transparent bar is transparent, whatever thumbor's fixture says about its colour.
    @Test func theBarsOfALetterboxAreTransparent() async throws {
        let h = try await Self.harness()
        try await h.withServer(ServeHarness.configuration()) { _, client in
            let response = try await client.execute(uri: Self.uri("200x200/px.svg", h), method: .get)
            let image = try ServeHarness.coders.decode(ServeHarness.data(response), options: DecodeOptions())
            #expect(image.size == PixelSize(width: 200, height: 200))
            #expect(image.pixels.color(x: 100, y: 10) == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
            #expect(image.pixels.color(x: 100, y: 49) == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
            #expect(image.pixels.color(x: 199, y: 100) == RGBAColor(red: 200, green: 30, blue: 30, alpha: 255))
            #expect(image.pixels.color(x: 100, y: 150) == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
        }
    }

    @Test func metaDescribesTheRenderingAsThumborDoes() async throws {
        let rows = try Self.rows().filter { $0[2] == "JSON" }
        #expect(rows.count == 4)
        let h = try await Self.harness()
        try await h.withServer(ServeHarness.configuration()) { _, client in
            for fields in rows {
                let path = String(fields[1])
                let response = try await client.execute(uri: Self.uri(path, h), method: .get)
                let json = try JSONSerialization.jsonObject(with: ServeHarness.data(response)) as? [String: Any]
                let source = (json?["thumbor"] as? [String: Any])?["source"] as? [String: Any]
                #expect(source?["width"] as? Int == Int(fields[3]), "\(path)")
                #expect(source?["height"] as? Int == Int(fields[4]), "\(path)")
            }
        }
    }
}

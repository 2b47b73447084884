import Foundation
import HummingbirdTesting
import Testing
import WebImage
import WITestServer
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// `frame(URL)` served through the service (the source and frame images from a loopback origin) against thumbor
/// 7.8's answers to the same requests (Tests/Fixtures/serve-frame/make_reference.py, a real thumbor server with its
/// file loader): what thumbor 7.8 really does (decision 0085), a white padding whose widths its nine-patch code
/// reads from the frame image's bytes, and a 500 for a frame image it cannot load.
@Suite struct ServeFrameTests {
    typealias H = ServeHarness

    /// The images of the fixture the origin serves (garbage.png as image/png).
    static let images = ["source.png", "frame.png", "small.png", "large.png", "plain.png", "garbage.png"]

    static func decode(_ data: Data) throws -> PixelBuffer {
        try PNGCoder().decode(data, options: DecodeOptions()).pixels.converted(to: .rgba8)
    }

    /// thumbor's path with every file name made the origin's URL.
    static func path(_ thumbor: Substring, origin: (String) -> String) -> String {
        var path = String(thumbor)
        for name in images + ["missing.png"] {
            path = path.replacingOccurrences(of: "(\(name))", with: "(\(origin("/" + name)))")
            path = path.replacingOccurrences(of: "('\(name)')", with: "('\(origin("/" + name))')")
        }
        return "/unsafe/" + path.replacingOccurrences(of: "/source.png", with: "/" + origin("/source.png"))
    }

    /// Every answer of the table: the 200s pixel for pixel thumbor's, but for the resized one (the resize is our
    /// resampler where thumbor's is Pillow's Lanczos; the padding around it is exact); the 500s 500 too.
    @Test func answersAsThumbor78Does() async throws {
        let h = try await ServeHarness()
        for name in Self.images {
            let data = try Data(contentsOf: Fixtures.url("serve-frame/\(name)"))
            h.origin.route("/" + name) { _ in WITestServer.TestResponse(body: data, contentType: "image/png") }
        }
        let rows = ThumborReference.rows(
            try String(contentsOf: Fixtures.url("serve-frame/thumbor-answers.tsv"), encoding: .utf8))
        #expect(rows.count == 13)
        try await h.withServer(H.configuration()) { _, client in
            for row in rows {
                let (name, path, status) = (String(row[0]), Self.path(row[1], origin: h.url), Int(row[2]))
                let answer = try await client.execute(uri: path, method: .get)
                #expect(Int(answer.status.code) == status, "\(name): \(H.text(answer))")
                guard status == 200 else {
                    #expect(H.text(answer).hasPrefix("frame \(h.url("/\(name).png")): "), "\(name)")
                    continue
                }
                let ours = try Self.decode(H.data(answer))
                let thumbor = try Self.decode(try Data(contentsOf: Fixtures.url("serve-frame/answer-\(name).png")))
                #expect(ours.size == thumbor.size, "\(name)")
                if name == "resize" {
                    // frame.png pads 3 left, 2 right, 1 below: those pixels white in both.
                    for (x, y) in [(0, 0), (2, 5), (13, 0), (14, 6), (7, 6)] {
                        #expect(ours.color(x: x, y: y) == .white && thumbor.color(x: x, y: y) == .white)
                    }
                    // 32.7 dB measured: a pattern that changes at every pixel, halved by two different filters.
                    let psnr = try #require(ours.psnr(against: thumbor))
                    #expect(psnr >= 32, "resize: \(psnr) dB")
                } else {
                    #expect(ours.packedBytes() == thumbor.packedBytes(), "\(name)")
                }
            }
        }
    }

    /// The paddings of the fixture's frames as thumbor 7.8's `get_padding` finds them (left, top, right, bottom),
    /// which the answers' sizes show: 20x12 framed by frame.png is 25x13.
    @Test func paddingIsReadAsThumbor78ReadsIt() throws {
        func padding(_ name: String) throws -> [Int] {
            let p = try ThumborFilters.Frame.padding(
                of: try Self.decode(try Data(contentsOf: Fixtures.url("serve-frame/\(name)"))))
            return [p.left, p.top, p.right, p.bottom]
        }
        #expect(try padding("frame.png") == [3, 0, 2, 1])
        #expect(try padding("small.png") == [0, 3, 1, 1])
        #expect(try padding("large.png") == [20, 0, 3, 3])
        #expect(try padding("plain.png") == [0, 0, 0, 0])
        let marked = try PixelBuffer(
            width: 5, height: 5, format: .rgba8, bytes: (0..<100).map { [14, 22].contains($0) ? 255 : 0 })
        #expect(try ThumborFilters.Frame.padding(of: marked) == (1, 1, 1, 1))
        // The same bytes in rows padded to 28 bytes (read in place, not packed first): the same widths.
        var padded = try PixelBuffer(width: 5, height: 5, format: .rgba8, bytesPerRow: 28)
        try padded.withUnsafeMutableBytes { bytes in
            for index in [14, 22] { bytes[index / 20 * 28 + index % 20] = 255 }
        }
        #expect(try ThumborFilters.Frame.padding(of: padded) == (1, 1, 1, 1))
        // A 16-bit frame is read as its 8-bit conversion.
        #expect(try ThumborFilters.Frame.padding(of: marked.converted(to: .rgba16)) == (1, 1, 1, 1))
        // Under 3 pixels a side: no border to read.
        let two = try PixelBuffer(width: 2, height: 9, format: .rgba8, bytes: Array(repeating: 255, count: 72))
        #expect(try ThumborFilters.Frame.padding(of: two) == (0, 0, 0, 0))
    }

    /// Lenient (thumbor's way) a `frame()` it cannot read is skipped; `--strict` names it in a 400. The frame's
    /// URL is in the transformer's key and in the signed path the variant key is made of.
    @Test func parsingAndKeys() throws {
        var skipped: [String] = []
        #expect(try ThumborFilters.parseList("frame():frame(a.png,b.png)", strict: false, skipped: &skipped).isEmpty)
        #expect(skipped == ["frame()", "frame(a.png,b.png)"])
        #expect(throws: ServeError(.badRequest, "frame() takes 1 argument(s), got 0")) {
            try ThumborFilters.parseList("frame()", strict: true)
        }
        // Each frame is a load: at most 4, lenient or strict.
        let five = Array(repeating: "frame(a.png)", count: 5).joined(separator: ":")
        #expect(throws: ServeError(.badRequest, "at most 4 frame() filters per request")) {
            try ThumborFilters.parseList(Substring(five), strict: false)
        }
        let parsed = try ThumborFilters.parseList("frame('https://x.org/f.png'):frame(f.png)", strict: true)
        #expect(parsed.map(\.description) == ["frame(https://x.org/f.png)", "frame(http://f.png)"])
        let one = try ThumborRequest.parse(path: "/unsafe/filters:frame(a.org/f.png)/a.org/i.png")
        let other = try ThumborRequest.parse(path: "/unsafe/filters:frame(a.org/g.png)/a.org/i.png")
        #expect(
            ThumborTransformer(request: one, pixelLimit: 1000).key
                == "Thumbor(fill=0x0;align=center,middle;frame(http://a.org/f.png))")
        let keys = [one, other].map {
            VariantCache.key(
                signedPath: $0.signedPath, requested: .png, accept: nil,
                negotiation: OutputFormat.Negotiation(webP: false, avif: false))
        }
        #expect(keys[0] == "v4 png filters:frame(a.org/f.png)/a.org/i.png" && keys[1] != keys[0])
    }
}

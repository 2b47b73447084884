import Foundation
import Testing
import WebImage
import WIHash
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// `trim` and `focal()` against a thumbor 7.8 server (Tests/Fixtures/serve-crop/make_reference.py): the same output
/// size for every path, and the same pixels (SHA-1 of the RGBA8 bytes) wherever nothing was resized, so the crop
/// windows are thumbor's to the pixel.
@Suite struct ServeCropTests {
    /// make_reference.py's `framed()`.
    static func framed() throws -> Image {
        try ThumborReference.image(300, 200) { x, y in
            if (40...259).contains(x) && (30...169).contains(y) { return [x * 7, y * 5, 128, 255] }
            if x == 5 && y == 190 { return [0, 0, 0, 255] }
            return (10...12).contains(y) ? [250, 250, 250, 255] : [255, 255, 255, 255]
        }
    }

    /// make_reference.py's `cornered()`.
    static func cornered() throws -> Image {
        try ThumborReference.image(200, 100) { x, y in
            if x == 0 && y == 0 { return [255, 0, 0, 255] }
            if (50..<150).contains(x) && (20..<80).contains(y) { return [x * 3, 40, y * 9, x == 60 ? 128 : 255] }
            return [10, 200, 10, 255]
        }
    }

    /// make_reference.py's `gradient()`.
    static func gradient() throws -> Image {
        try ThumborReference.image(400, 200) { x, y in [x, y, x * 3, 255] }
    }

    @Test func matchesThumbor() throws {
        let text = try String(contentsOf: Fixtures.url("serve-crop/thumbor-crop-reference.tsv"), encoding: .utf8)
        let rows = ServeBlurTests.rows(text)
        #expect(rows.count == 21)
        let images = ["framed": try Self.framed(), "cornered": try Self.cornered(), "gradient": try Self.gradient()]
        var compared = 0
        for fields in rows {
            let path = String(fields[1])
            let request = try ThumborRequest.parse(path: "/unsafe/\(path)example.com/a.png")
            let output = try ThumborTransformer(request: request, pixelLimit: 1 << 20).transform(
                try #require(images[String(fields[0])]))
            #expect("\(output.width)x\(output.height)" == "\(fields[2])x\(fields[3])", "\(fields[0]) \(path)")
            // Unresized: no size asked for, or a fill crop cut out at exactly the size asked for.
            let resized =
                request.fitIn
                || fields[0] != "gradient" && (request.width != .pixels(0) || request.height != .pixels(0))
            if !resized {
                let bytes = try output.pixels.converted(to: .rgba8).packedBytes()
                let digest = Hex.string(SHA1.digest(bytes))
                #expect(digest == String(fields[4]), "\(fields[0]) \(path): other pixels than thumbor's")
                compared += 1
            }
        }
        #expect(compared == 17)
    }

    @Test func trimSegments() throws {
        func trim(_ segment: String) throws -> ThumborRequest.Trim? {
            try ThumborRequest.parse(path: "/unsafe/\(segment)/example.com/a.png").trim
        }
        #expect(try trim("trim") == ThumborRequest.Trim())
        #expect(try trim("trim:bottom-right") == ThumborRequest.Trim(bottomRight: true, tolerance: 0))
        #expect(try trim("trim:top-left:25") == ThumborRequest.Trim(bottomRight: false, tolerance: 25))
        // thumbor reads a lone number as the corner's name: not top-left, so bottom-right, with tolerance 0.
        #expect(try trim("trim:7") == ThumborRequest.Trim(bottomRight: true, tolerance: 0))
        #expect(try trim("300x200") == nil)
        #expect(throws: ServeError.self) { try trim("trim:middle") }
        #expect(throws: ServeError.self) { try trim("trim:top-left:-1") }
        #expect(throws: ServeError.self) { try trim("trim:7:7") }
    }
}

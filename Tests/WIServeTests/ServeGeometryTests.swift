import Foundation
import Testing
import WebImage
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// Output sizes against thumbor 7.8's for 1,080 request paths (every fit-in mode, sizes that shrink, enlarge and
/// leave a side free, and the filters that change the size, alone and in both orders) on four sources, answered by
/// a real thumbor server (Tests/Fixtures/serve-geometry/make_reference.py).
@Suite struct ServeGeometryTests {
    @Test func sizesMatchThumbor() throws {
        let text = try String(
            contentsOf: Fixtures.url("serve-geometry/thumbor-geometry-reference.tsv"), encoding: .utf8)
        let rows = ServeBlurTests.rows(text)
        #expect(rows.count == 1_080)
        var images: [String: Image] = [:]
        var mismatches: [String] = []
        for fields in rows {
            let source = fields[0].split(separator: "x").compactMap { Int($0) }
            let image =
                try images[String(fields[0])]
                ?? Image(pixels: PixelBuffer(width: source[0], height: source[1], format: .rgba8))
            images[String(fields[0])] = image
            let request = try ThumborRequest.parse(path: "/unsafe/\(fields[1])example.com/a.png")
            let output = try ThumborTransformer(request: request, pixelLimit: 50_000_000).transform(image)
            let expected = "\(fields[2])x\(fields[3])"
            if "\(output.width)x\(output.height)" != expected {
                mismatches.append("\(fields[0]) \(fields[1]): \(output.width)x\(output.height), thumbor \(expected)")
            }
        }
        #expect(
            mismatches.isEmpty,
            "\(mismatches.count) sizes differ from thumbor's:\n\(mismatches.prefix(40).joined(separator: "\n"))")
    }
}

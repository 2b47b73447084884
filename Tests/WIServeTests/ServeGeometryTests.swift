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

/// thumbor's MAX_WIDTH and MAX_HEIGHT (`--max-width`, `--max-height`): output sizes against thumbor 7.8's for 200
/// cases (five pairs of maximums, four sources, ten paths with sizes past and within them, fit-in, a manual crop,
/// a flip and `orig`), answered by a real thumbor server (Tests/Fixtures/serve-max-size/make_reference.py).
extension ServeGeometryTests {
    @Test func sizesUnderMaximumsMatchThumbor() throws {
        let text = try String(
            contentsOf: Fixtures.url("serve-max-size/thumbor-max-size-reference.tsv"), encoding: .utf8)
        // Split keeping empty fields: the first path of each source is empty (the source's own size).
        let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        #expect(rows.count == 200)
        var mismatches: [String] = []
        for fields in rows {
            let source = fields[2].split(separator: "x").compactMap { Int($0) }
            let image = Image(pixels: try PixelBuffer(width: source[0], height: source[1], format: .rgba8))
            let request = try ThumborRequest.parse(path: "/unsafe/\(fields[3])example.com/a.png")
            var transformer = ThumborTransformer(request: request, pixelLimit: 50_000_000)
            (transformer.maxWidth, transformer.maxHeight) = (try #require(Int(fields[0])), try #require(Int(fields[1])))
            let output = try transformer.transform(image)
            let expected = "\(fields[4])x\(fields[5])"
            if "\(output.width)x\(output.height)" != expected {
                mismatches.append(
                    "max \(fields[0])x\(fields[1]) \(fields[2]) \(fields[3]): \(output.width)x\(output.height), "
                        + "thumbor \(expected)")
            }
        }
        #expect(
            mismatches.isEmpty,
            "\(mismatches.count) sizes differ from thumbor's:\n\(mismatches.prefix(40).joined(separator: "\n"))")
    }

    /// The maximums join the transformer's key only when set, so the keys of services without them stay.
    @Test func theKeyNamesTheMaximumsOnlyWhenSet() throws {
        let request = try ThumborRequest.parse(path: "/unsafe/300x200/example.com/a.png")
        var transformer = ThumborTransformer(request: request, pixelLimit: 50_000_000)
        #expect(transformer.key == "Thumbor(fill=300x200;align=center,middle)")
        transformer.maxWidth = 150
        #expect(transformer.key == "Thumbor(fill=300x200;align=center,middle;max=150x0)")
    }
}

/// `extract_focal()` as thumbor 7.8 answers it (Tests/Fixtures/serve-extract-focal/make_reference.py): the nested
/// thumbor URL is the source as written, and the window is the alignment's.
extension ServeGeometryTests {
    @Test func extractFocalChangesNothingAsInThumbor() throws {
        let text = try String(
            contentsOf: Fixtures.url("serve-extract-focal/thumbor-extract-focal-reference.tsv"), encoding: .utf8)
        let rows = ServeBlurTests.rows(text)
        #expect(rows.count == 3)
        var bytes: [UInt8] = []
        for y in 0..<200 { for x in 0..<400 { bytes += [UInt8(x % 256), UInt8(y), UInt8(x / 256), 255] } }
        let source = Image(pixels: try PixelBuffer(width: 400, height: 200, format: .rgba8, bytes: bytes))
        for fields in rows {
            let request = try ThumborRequest.parse(path: "/unsafe/\(fields[0])src.png")
            #expect(request.imagePath.hasPrefix("thumbor.example/unsafe/") && request.imagePath.hasSuffix("/src.png"))
            guard fields[1] == "200" else { continue }
            let output = try ThumborTransformer(request: request, pixelLimit: 50_000_000).transform(source).pixels
            #expect("\(output.width)x\(output.height)" == "\(fields[2])x\(fields[3])")
            let corner = output.color(x: 0, y: 0)
            #expect(Int(corner.blue) * 256 + Int(corner.red) == Int(fields[4]) && Int(corner.green) == Int(fields[5]))
        }
        let parsed = try ThumborFilters.parseList("extract_focal()", strict: true)
        #expect(parsed.first is ThumborFilters.ExtractFocal)
    }
}

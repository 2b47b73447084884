import Foundation
import Testing
import WICore
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// Our signatures against thumbor's own signer: URLs libthumbor 2.0.2 generated and signed
/// (Tests/Fixtures/serve/make-thumbor-signatures.py -> thumbor-signatures.tsv).
@Suite struct ThumborSignatureTests {
    static func table() throws -> [(key: String, path: String)] {
        let text = try String(contentsOf: Fixtures.url("serve/thumbor-signatures.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: "\t", maxSplits: 1)
            return (String(fields[0]), String(fields[1]))
        }
    }

    @Test func tableHasEveryCase() throws {
        #expect(try Self.table().count == 10)
    }

    @Test func everyLibthumborSignatureVerifies() throws {
        for (key, path) in try Self.table() {
            let request = try ThumborRequest.parse(path: path)
            let signer = ThumborSignature(key: key)
            #expect(signer.sign(request.signedPath) == request.signature, "\(path)")
            #expect(signer.isValid(request.signature, for: request.signedPath), "\(path)")
            #expect(request.signature.count == 28)
        }
    }

    @Test func anotherKeyOrAChangedPathDoesNotVerify() throws {
        for (key, path) in try Self.table() {
            let request = try ThumborRequest.parse(path: path)
            #expect(!ThumborSignature(key: key + "x").isValid(request.signature, for: request.signedPath))
            #expect(!ThumborSignature(key: key).isValid(request.signature, for: request.signedPath + "x"))
            #expect(!ThumborSignature(key: key).isValid(String(request.signature.dropLast()), for: request.signedPath))
        }
    }

    @Test func libthumborURLsParseAsThumborDoes() throws {
        let rows = try Self.table()
        let smart = try ThumborRequest.parse(path: rows[1].path)
        #expect(smart.smart && smart.width == .pixels(300) && smart.height == .pixels(200))
        #expect(smart.imageURL == "http://example.com/a.jpg")

        let fit = try ThumborRequest.parse(path: rows[3].path)
        #expect(fit.fitIn && fit.width == .pixels(300) && fit.height == .pixels(200))
        #expect(fit.filters == [F.Quality(80), F.Fill(RGBAColor(red: 255, green: 0, blue: 0))])
        #expect(fit.imageURL == "http://example.com/a.jpg")

        let crop = try ThumborRequest.parse(path: rows[4].path)
        #expect(crop.crop == ThumborRequest.CropBox(left: 10, top: 20, right: 110, bottom: 220))
        #expect(crop.width == .pixels(50) && crop.height == .pixels(40))
        #expect(crop.flipHorizontally && crop.flipVertically)
        #expect(crop.horizontalAlignment == .left && crop.verticalAlignment == .top)

        let query = try ThumborRequest.parse(path: rows[5].path)
        #expect(query.width == .pixels(0) && query.height == .pixels(100))
        #expect(query.filters == [F.Format(.webp), F.StripEXIF()])
        #expect(query.imageURL == "https://images.example.org/path/to/picture.png?size=large&v=2")

        let filters = try ThumborRequest.parse(path: rows[6].path)
        #expect(filters.horizontalAlignment == .right && filters.verticalAlignment == .bottom)
        #expect(
            filters.filters == [
                F.Blur(radius: 3, sigma: 0), F.Rotate(90), F.RoundCorner(radius: 10, color: .white, transparent: false),
            ])

        let plain = try ThumborRequest.parse(path: rows[8].path)
        #expect(plain.width == .pixels(0) && plain.height == .pixels(0) && !plain.fitIn && plain.filters.isEmpty)
        #expect(plain.imageURL == "http://example.com/plain.jpg")
    }
}

import Foundation
import Testing
import WICore
import WICoderPNG
import WITestSupport

@Suite struct PngSuiteTests {
    static let references8 = PixelReference.load("pngsuite-reference.tsv")
    static let references16 = PixelReference.load("pngsuite-reference16.tsv")
    static let corrupt = Fixtures.files(in: "pngsuite", withExtension: "png").filter { $0.hasPrefix("x") }

    @Test func theReferenceTablesCoverTheSuite() {
        let valid = Fixtures.files(in: "pngsuite", withExtension: "png").filter { !$0.hasPrefix("x") }
        #expect(Self.references8.map(\.file) == valid)
        #expect(Self.references8.count == 161)
        #expect(Self.references16.count == 33)
        #expect(Self.corrupt.count == 14)
    }

    @Test(arguments: references8)
    func decodesToTheReferenceRGBA8(reference: PixelReference) throws {
        let image = try PNGCoder().decode(Fixtures.data("pngsuite/\(reference.file)"), options: .init())
        #expect(image.size == PixelSize(width: reference.width, height: reference.height))
        #expect(image.format == .png)
        #expect(image.pixels.format == .rgba8)
        #expect(SHA256.hex(image.pixels.packedBytes()) == reference.sha256)
    }

    @Test(arguments: references16)
    func keepsSixteenBitsWhenAsked(reference: PixelReference) throws {
        let image = try PNGCoder().decode(Fixtures.data("pngsuite/\(reference.file)"), options: .init(keep16Bit: true))
        #expect(image.pixels.format == .rgba16)
        #expect(image.size == PixelSize(width: reference.width, height: reference.height))
        // The reference hashes little-endian samples; this host is little-endian (x86_64, arm64).
        #expect(SHA256.hex(image.pixels.packedBytes()) == reference.sha256)
    }

    @Test func eightBitFilesStayEightBitWhenSixteenIsAllowed() throws {
        let image = try PNGCoder().decode(Fixtures.data("pngsuite/basn2c08.png"), options: .init(keep16Bit: true))
        #expect(image.pixels.format == .rgba8)
    }

    @Test(arguments: corrupt)
    func corruptFilesGiveATypedError(file: String) {
        let data = Fixtures.data("pngsuite/\(file)")
        let error = #expect(throws: ImageError.self) { try PNGCoder().decode(data, options: .init()) }
        #expect(error?.code == .badImageData)
        // Through the manager: a broken signature is not recognised as PNG at all, so no coder takes the bytes
        // (1004, which never blocks the URL); a recognised but broken file is bad data (1001).
        let viaManager = #expect(throws: ImageError.self) {
            try ImageCodersManager(coders: [PNGCoder()]).decode(data, options: .init())
        }
        #expect(viaManager?.code == (PNGCoder().canDecode(data) ? .badImageData : .unsupportedFormat))
    }
}

import Foundation
import Testing
import WICore
import WICoderPNG
import WICoderSVG
import WITestSupport

/// A sample of resvg's test suite against resvg's own 300x300 reference PNGs, which show the intended rendering.
/// librsvg and resvg rasterize differently (antialiasing, gradients, filters), so this is a PSNR bound, not
/// equality; measured minimum over the sample: see `psnrThreshold`.
@Suite struct SVGResvgReferenceTests {
    static let files = Fixtures.files(in: "svg/resvg", withExtension: "svg")

    static let psnrThreshold = 20.0

    @Test(arguments: files)
    func rendersCloseToResvgsReference(file: String) throws {
        let reference = try PNGCoder().decode(Fixtures.data("svg/resvg/\(file.dropLast(4)).png"), options: .init())
        let image = try SVGCoder().decode(Fixtures.data("svg/resvg/\(file)"),
                                          options: .init(thumbnailPixelSize: reference.size))
        #expect(image.size == reference.size)
        let psnr = try PixelComparison.psnr(image.pixels, reference.pixels)
        print("PSNR \(file) \(psnr)")
        #expect(psnr >= Self.psnrThreshold, "\(file): \(psnr) dB")
    }
}

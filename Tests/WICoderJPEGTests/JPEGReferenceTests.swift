import Foundation
import Testing
import WICore
import WICoderJPEG
import WITestSupport

/// Every JPEG fixture against Pillow's decode of it (refdecode.py): baseline, progressive, greyscale, 4:2:0 / 4:2:2 /
/// 4:4:4, CMYK and YCCK (Pillow's Adobe-inverted formula), restart markers, arithmetic coding, odd sizes. Debian's
/// libjpeg-turbo 2.1.5 and Pillow's bundled 3.x give the same bytes for all of them, so the comparison is exact.
@Suite struct JPEGReferenceTests {
    @Test(arguments: JPEGReference.all)
    func matchesPillowExactly(reference: PixelReference) throws {
        let image = try JPEGCoder().decode(
            Fixtures.data("jpeg/\(reference.file)"), options: .init(applyOrientation: false))
        #expect(image.size == PixelSize(width: reference.width, height: reference.height))
        #expect(image.pixels.format == .rgba8)
        #expect(SHA256.hex(image.pixels.packedBytes()) == reference.sha256)
        // partial_progressive.jpg's last scan breaks off ("premature end of data segment"): Pillow shows it too.
        #expect(image.flags == (reference.file == "partial_progressive.jpg" ? .incomplete : []))
    }

    @Test func everyColourModelAndCodingIsCovered() {
        let files = Set(JPEGReference.all.map(\.file))
        for file in [
            "jpg-cmyk-1.jpg", "jpg-cmyk-2.jpg", "ycck.jpg", "jpg-gray.jpg", "bricks-gray.jpg", "hat-420.jpg",
            "hat-422.jpg", "hat-444.jpg", "hat-progressive.jpg", "progressive-nuke.jpg", "restarts.jpg",
            "hat-arithmetic.jpg", "hat-arithmetic-progressive.jpg", "non-interleaved-mcu.jpg",
        ] {
            #expect(files.contains(file), "\(file)")
        }
        #expect(JPEGReference.all.count == 27)
    }
}

import Foundation
import Testing
import WICore
import WICoderJXL
import WITestSupport

struct JXLIncrementalTests {
    /// One byte at a time, random chunks and the whole file end in the one-shot image; partial images on the way.
    @Test(arguments: [
        "progressive.jxl", "jpeg-recompressed.jxl", "container-lossless.jxl",
        "gray_alpha_lossless.jxl", "5_frames_numbered_jxli.jxl", "square-extended-size-container.jxl",
    ])
    func passesTheProgressiveCoderVerifier(_ file: String) throws {
        let report = try ProgressiveCoderVerifier.verify(JXLCoder(), data: Fixtures.data("jxl/\(file)"))
        #expect(report.runs == 5)
        // Partial images before the end, beyond the one each run shows once the frame is complete.
        if file == "progressive.jxl" { #expect(report.partialImages > report.runs) }
    }

    @Test func showsTheDCImageBeforeTheFileIsComplete() throws {
        let data = Fixtures.data("jxl/progressive.jxl")
        let decoder = try #require(JXLCoder().makeIncrementalDecoder(header: data.prefix(64), options: .init()))
        var firstPartialAt: Int?
        for offset in stride(from: 0, to: data.count, by: 256) where firstPartialAt == nil {
            if try decoder.append(data[offset..<min(data.count, offset + 256)]) { firstPartialAt = offset + 256 }
        }
        let at = try #require(firstPartialAt)
        #expect(at <= data.count / 4)
        let partial = try #require(decoder.currentImage())
        #expect(partial.size == PixelSize(width: 312, height: 442))
        #expect(partial.flags.contains(.incremental))
        #expect(try partial.frames[0].pixels.isOpaque)  // the upsampled DC image covers the whole (opaque) canvas
        let final = try JXLCoder().decode(data, options: .init())
        #expect(try JXLTestSupport.psnr(partial.frames[0].pixels, final.frames[0].pixels) >= 15)
    }

    /// The permuted-TOC file libjxl 0.7 refuses under frame progression: fed in 256-byte chunks, `finish` still
    /// gives the image (decoded in one go once the streaming session gave up).
    @Test func permutedTableOfContentsFinishesWithTheImage() throws {
        let data = Fixtures.data("jxl/has_permutation_with_container.jxl")
        let decoder = try #require(JXLCoder().makeIncrementalDecoder(header: data.prefix(64), options: .init()))
        for offset in stride(from: 0, to: data.count, by: 256) {
            _ = try decoder.append(data[offset..<min(data.count, offset + 256)])
        }
        #expect(try decoder.finish().size == PixelSize(width: 2143, height: 1050))
    }

    @Test func truncatedStreamEndsInATypedError() throws {
        let data = Fixtures.data("jxl/progressive.jxl")
        let decoder = try #require(JXLCoder().makeIncrementalDecoder(header: data.prefix(64), options: .init()))
        _ = try decoder.append(data.prefix(data.count / 2))
        let error = #expect(throws: ImageError.self) { try decoder.finish() }
        #expect(error?.code == .badImageData)
    }
}

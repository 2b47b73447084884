import Foundation
import Testing
import WICore
import WICoderWebP
import WITestSupport

@Suite struct WebPIncrementalTests {
    @Test(arguments: [
        "vp80-00-comprehensive-007.webp", "test-nostrong.webp", "lossy_q0_f100.webp",  // lossy
        "lossless4.webp", "color_index.webp", "dual_transform.webp",  // lossless
        "lossy_alpha4.webp", "alpha_color_cache.webp", "alpha_no_compression.webp",
    ])  // alpha
    func verifierPasses(file: String) throws {
        let report = try ProgressiveCoderVerifier.verify(WebPCoder(), data: WebPReference.named(file).data)
        #expect(report.runs == 5)
        #expect(report.partialImages > 0)
    }

    @Test func verifierPassesWithThumbnailAndPremultipliedOptions() throws {
        let data = WebPReference.named("gallery2-4-lossy-alpha.webp").data
        let report = try ProgressiveCoderVerifier.verify(
            WebPCoder(), data: data,
            options: .init(thumbnailPixelSize: .init(width: 120, height: 120), premultipliedAlpha: true),
            chunkRuns: 1)
        #expect(report.partialImages > 0)
    }

    @Test func exifOrientedFilesShowNoPartialImagesButFinishUpright() throws {
        let data = WebPReference.named("made-metadata-orientation6.webp").data
        let report = try ProgressiveCoderVerifier.verify(WebPCoder(), data: data, chunkRuns: 1)
        #expect(report.partialImages == 0)
        let decoder = try #require(WebPCoder().makeIncrementalDecoder(header: data.prefix(64), options: .init()))
        #expect(try !decoder.append(data))
        let image = try decoder.finish()
        #expect(image.size == PixelSize(width: 20, height: 32))
        #expect(image.metadata.iccProfile?.count == 672)
        // Without orientation, partial images appear as usual.
        let raw = try ProgressiveCoderVerifier.verify(
            WebPCoder(), data: data, options: .init(applyOrientation: false), chunkRuns: 1)
        #expect(raw.partialImages > 0)
    }

    @Test func rowsAppearAsTheirBytesArrive() throws {
        let data = WebPReference.named("vp80-00-comprehensive-007.webp").data  // 176x144 lossy, 346 bytes
        let reference = try WebPCoder().decode(data, options: .init())
        let decoder = try #require(WebPCoder().makeIncrementalDecoder(header: data.prefix(64), options: .init()))
        #expect(try !decoder.append(data.prefix(20)))
        #expect(decoder.currentImage() == nil)  // nothing before the header
        #expect(try decoder.append(data.prefix(200).dropFirst(20)))
        let partial = try #require(decoder.currentImage())
        #expect(partial.flags.contains(.incremental))
        #expect(partial.size == reference.size)
        #expect(partial.pixels.color(x: 0, y: 0) == reference.pixels.color(x: 0, y: 0))  // first rows arrived
        #expect(partial.pixels.color(x: 175, y: 143).alpha == 0)  // last row not yet
        let truncated = #expect(throws: ImageError.self) { try decoder.finish() }
        #expect(truncated?.code == .badImageData)
        _ = try decoder.append(data.dropFirst(200))
        let final = try decoder.finish()
        #expect(final.pixels == reference.pixels)
        #expect(!final.flags.contains(.incremental))
    }

    @Test func animationsAreDeclined() {
        let data = WebPReference.named("animated-blend.webp").data
        #expect(WebPCoder().makeIncrementalDecoder(header: data.prefix(64), options: .init()) == nil)
        #expect(
            WebPCoder().makeIncrementalDecoder(header: Fixtures.data("formats/sample.png"), options: .init()) == nil)
    }

    @Test func anAnimationDiscoveredLateIsDecodedAtTheEnd() throws {
        let data = WebPReference.named("animated-random-lossless.webp").data
        // A header too short to show the VP8X flags: the decoder is made, collects the bytes, decodes at the end.
        let decoder = try #require(WebPCoder().makeIncrementalDecoder(header: data.prefix(16), options: .init()))
        #expect(try !decoder.append(data))
        #expect(decoder.currentImage() == nil)
        #expect(try decoder.finish().frameCount == 3)
    }

    @Test func corruptDataFailsTheDecoderWithATypedError() throws {
        var bytes = [UInt8](WebPReference.named("lossless4.webp").data)
        for i in 40..<bytes.count { bytes[i] = 0xFF }
        let decoder = try #require(WebPCoder().makeIncrementalDecoder(header: Data(bytes.prefix(64)), options: .init()))
        let error = #expect(throws: ImageError.self) { _ = try decoder.append(Data(bytes)) }
        #expect(error?.code == .badImageData)
        #expect(throws: ImageError.self) { try decoder.finish() }
    }
}

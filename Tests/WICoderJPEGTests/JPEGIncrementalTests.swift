import Foundation
import Testing
import WICore
import WICoderJPEG
import WITestSupport

@Suite struct JPEGIncrementalTests {
    @Test(arguments: [
        "jpeg/hat.jpg", "jpeg/hat-444.jpg", "jpeg/restarts.jpg", "jpeg/jpg-cmyk-2.jpg", "jpeg/ycck.jpg",
        "jpeg/hat-progressive.jpg", "jpeg/progressive-cat.jpg", "jpeg/progressive-nuke.jpg",
        "jpeg/non-interleaved-mcu.jpg",
        "jpeg/partial_progressive.jpg", "jpeg/right-orientation.jpg",
    ])
    func verifierPasses(file: String) throws {
        let report = try ProgressiveCoderVerifier.verify(JPEGCoder(), data: Fixtures.data(file))
        #expect(report.runs == 5)
        #expect(report.partialImages > 0)
    }

    @Test func verifierPassesWithThumbnailOptions() throws {
        try ProgressiveCoderVerifier.verify(
            JPEGCoder(), data: Fixtures.data("jpeg/progressive-nuke.jpg"),
            options: .init(thumbnailPixelSize: .init(width: 100, height: 100)),
            chunkRuns: 1)
        try ProgressiveCoderVerifier.verify(
            JPEGCoder(), data: Fixtures.data("jpeg/right-orientation.jpg"),
            options: .init(thumbnailPixelSize: .init(width: 64, height: 64)),
            chunkRuns: 1)
    }

    /// Feeds `data` in `step`-byte pieces; returns every partial image shown and the final image.
    private func feed(_ data: Data, step: Int) throws -> (partials: [Image], final: Image) {
        let decoder = try #require(JPEGCoder().makeIncrementalDecoder(header: data.prefix(64), options: .init()))
        #expect(decoder.currentImage() == nil)
        var partials: [Image] = []
        var offset = 0
        while offset < data.count {
            let end = min(data.count, offset + step)
            if try decoder.append(data.subdata(in: offset..<end)), let image = decoder.currentImage() {
                partials.append(image)
            }
            offset = end
        }
        return (partials, try decoder.finish())
    }

    @Test func progressiveShowsTheImageAfterEachScan() throws {
        let data = Fixtures.data("jpeg/hat-progressive.jpg")  // cjpeg -progressive: 10 scans
        let reference = try JPEGCoder().decode(data, options: .init())
        let (partials, final) = try feed(data, step: 64)
        #expect(partials.count == 10)
        #expect(partials.allSatisfy { $0.flags.contains(.incremental) && $0.size == reference.size })
        #expect(final.pixels == reference.pixels)
        #expect(!final.flags.contains(.incremental))
        // Each scan sharpens the picture: the distance to the final image shrinks to zero.
        let distances = partials.map { psnr($0.pixels, reference.pixels) }
        #expect(distances.first! < 30)
        #expect(distances.last! == .infinity)
        #expect(zip(distances, distances.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func baselineRowsAppearAsTheirBytesArrive() throws {
        let data = Fixtures.data("jpeg/hat.jpg")  // 90x112 baseline
        let reference = try JPEGCoder().decode(data, options: .init())
        let decoder = try #require(JPEGCoder().makeIncrementalDecoder(header: data.prefix(64), options: .init()))
        let half = data.count / 2
        #expect(try decoder.append(data.prefix(half)))
        let partial = try #require(decoder.currentImage())
        #expect(partial.flags.contains(.incremental))
        #expect(partial.size == reference.size)
        #expect(partial.pixels.color(x: 10, y: 0) == reference.pixels.color(x: 10, y: 0))  // first rows arrived
        #expect(partial.pixels.color(x: 10, y: 111).alpha == 0)  // last rows not yet
        #expect(try !decoder.append(Data()))
        #expect(try decoder.append(data.suffix(from: half)))
        let final = try decoder.finish()
        #expect(final.pixels == reference.pixels)
        #expect(final.flags.isEmpty)
    }

    @Test func finishingEarlyGivesThePaddedImageFlaggedIncomplete() throws {
        let data = Fixtures.data("jpeg/progressive-nuke.jpg")
        let cut = data.prefix(data.count * 2 / 3)
        let decoder = try #require(JPEGCoder().makeIncrementalDecoder(header: data.prefix(64), options: .init()))
        _ = try decoder.append(cut)
        let final = try decoder.finish()
        #expect(final.flags == .incomplete)
        #expect(final.pixels == (try JPEGCoder().decode(cut, options: .init())).pixels)
    }

    @Test(arguments: ["jpeg/hat-arithmetic.jpg", "jpeg/hat-arithmetic-progressive.jpg"])
    func arithmeticCodedFilesDecodeOnceAllDataIsThere(file: String) throws {
        // libjpeg's arithmetic decoder cannot suspend, so nothing shows before finish; the result is still exact.
        let data = Fixtures.data(file)
        let decoder = try #require(JPEGCoder().makeIncrementalDecoder(header: data.prefix(64), options: .init()))
        for offset in stride(from: 0, to: data.count, by: 100) {
            #expect(try !decoder.append(data.subdata(in: offset..<min(data.count, offset + 100))))
        }
        #expect(try decoder.finish().pixels == (try JPEGCoder().decode(data, options: .init())).pixels)
    }

    @Test func corruptDataFailsTheDecoderWithATypedError() throws {
        var bytes = [UInt8](Fixtures.data("jpeg/hat.jpg"))
        let sof = bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }!
        (bytes[sof + 5], bytes[sof + 6]) = (0, 0)  // height 0 (a DNL marker, which libjpeg refuses)
        let decoder = try #require(JPEGCoder().makeIncrementalDecoder(header: Data(bytes.prefix(64)), options: .init()))
        let error = #expect(throws: ImageError.self) { _ = try decoder.append(Data(bytes)) }
        #expect(error?.code == .badImageData)
        #expect(error?.message == "JPEG: Empty JPEG image (DNL not supported)")
        #expect(throws: ImageError.self) { try decoder.finish() }
    }
}

import Foundation
import Testing
import WICore
import WICoderJPEG
import WITestSupport

/// Truncated, bit-flipped and deliberately malformed files: a typed error or an image, never a crash, never slow.
@Suite struct JPEGRobustnessTests {
    static let files = [
        "jpeg/hat.jpg", "jpeg/hat-progressive.jpg", "jpeg/progressive-cat.jpg", "jpeg/jpg-cmyk-2.jpg",
        "jpeg/ycck.jpg", "jpeg/restarts.jpg", "jpeg/hat-arithmetic.jpg", "jpeg/right-orientation.jpg",
    ]

    @Test(arguments: files)
    func truncatedAt32Offsets(file: String) {
        let data = Fixtures.data(file)
        // Cut somewhere before the final EOI marker: part of the image data is always missing.
        for cut in DataMutations.truncated(data, below: data.count - 2) {
            let started = DataMutations.processCPUTime()
            do {
                let image = try JPEGCoder().decode(cut, options: .init())
                #expect(image.flags.contains(.incomplete), "cut at \(cut.count)")
            } catch {
                #expect(error.code == .badImageData, "cut at \(cut.count)")
            }
            #expect(DataMutations.processCPUTime() - started < .seconds(1))
        }
    }

    @Test(arguments: files)
    func hundredBitFlippedCopies(file: String) {
        let survey = DataMutations.survey(DataMutations.bitFlipped(Fixtures.data(file))) { data throws(ImageError) in
            try JPEGCoder().decode(data, options: .init())
        }
        #expect(survey.decoded + survey.failed == 100)
        #expect(survey.unexpected == [])
        #expect(survey.slowest < .seconds(1))
    }

    /// jpeg-decoder's crashtest folder (Tests/Fixtures/jpeg-crashtest): files that crashed or hung decoders.
    @Test func crashTestFilesGiveTypedErrorsOrImages() throws {
        let names = Fixtures.files(in: "jpeg-crashtest")
        #expect(names.count == 104)
        var decoded = 0
        var incomplete = 0
        var failed: [String: Int] = [:]
        for name in names {
            let data = Fixtures.data("jpeg-crashtest/\(name)")
            let started = DataMutations.processCPUTime()
            do {
                let image = try JPEGCoder().decode(data, options: .init())
                decoded += 1
                if image.flags.contains(.incomplete) { incomplete += 1 }
            } catch {
                #expect([.badImageData, .pixelLimitExceeded].contains(error.code), "\(name): \(error)")
                failed[String(error.message.prefix(40)), default: 0] += 1
            }
            #expect(DataMutations.processCPUTime() - started < .seconds(1), "\(name)")
        }
        // libjpeg-turbo 2.1.5 decodes 30 (25 of them padded: flagged incomplete) and refuses 74, each with its own
        // message (73 from libjpeg, one 49157x27397 header over the pixel limit).
        #expect(decoded == 30)
        #expect(incomplete == 25)
        #expect(failed.values.reduce(0, +) == 74)
        #expect(failed.keys.filter { !$0.hasPrefix("JPEG: ") } == ["49157x27397 x 1 frame(s) exceeds the pix"])
    }
}

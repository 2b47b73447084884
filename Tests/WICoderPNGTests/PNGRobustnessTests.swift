import Foundation
import Testing
import WICore
import WICoderPNG
import WITestSupport

/// Truncated and bit-flipped copies of real files: a typed error or an image, never a crash, never slow.
@Suite struct PNGRobustnessTests {
    static let files = [
        "png/interlaced-hibiscus.png", "png/rgba16.png", "png/indexed-4bit-trns.png",
        "png/exif-orientation6-iccp.png", "pngsuite/basi6a16.png", "pngsuite/z09n2c08.png",
    ]

    @Test(arguments: files)
    func truncatedAt32Offsets(file: String) {
        for truncated in DataMutations.truncated(Fixtures.data(file)) {
            let cut = truncated.count
            let started = DataMutations.processCPUTime()
            let error = #expect(throws: ImageError.self) { try PNGCoder().decode(truncated, options: .init()) }
            #expect(error?.code == .badImageData, "cut at \(cut)")
            #expect(DataMutations.processCPUTime() - started < .seconds(1))
        }
    }

    @Test(arguments: files + APNGRobustnessTests.files)
    func hundredBitFlippedCopies(file: String) {
        let survey = DataMutations.survey(DataMutations.bitFlipped(Fixtures.data(file))) { data throws(ImageError) in
            try PNGCoder().decode(data, options: .init())
        }
        #expect(survey.decoded + survey.failed == 100)
        #expect(survey.unexpected == [])
        #expect(survey.slowest < .seconds(1))
    }
}

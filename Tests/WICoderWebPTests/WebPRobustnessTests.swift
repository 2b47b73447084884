import Foundation
import Testing
import WICore
import WICoderWebP
import WITestSupport

/// Truncated and bit-flipped copies of every fixture: a typed error or an image, never a crash, never slow.
@Suite struct WebPRobustnessTests {
    @Test(arguments: WebPReference.all)
    func truncatedAt32Offsets(reference: WebPReference) {
        let data = reference.data
        for truncated in DataMutations.truncated(data) {
            let started = DataMutations.processCPUTime()
            let error = #expect(throws: ImageError.self) { try WebPCoder().decode(truncated, options: .init()) }
            #expect(error?.code == .badImageData, "cut at \(truncated.count)")
            // The incremental decoder takes the same bytes and fails the same way at the end (or declines).
            if let decoder = WebPCoder().makeIncrementalDecoder(header: truncated.prefix(64), options: .init()) {
                _ = try? decoder.append(truncated)
                _ = decoder.currentImage()
                #expect(throws: ImageError.self) { try decoder.finish() }
            }
            #expect(DataMutations.processCPUTime() - started < .seconds(1), "cut at \(truncated.count)")
        }
    }

    @Test(arguments: WebPReference.all)
    func hundredBitFlippedCopies(reference: WebPReference) {
        let survey = DataMutations.survey(DataMutations.bitFlipped(reference.data)) { data throws(ImageError) in
            try WebPCoder().decode(data, options: .init())
        }
        #expect(survey.decoded + survey.failed == 100)
        #expect(survey.unexpected == [])
        #expect(survey.slowest < .seconds(1))
    }
}

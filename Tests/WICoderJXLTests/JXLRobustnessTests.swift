import Foundation
import Testing
import WICore
import WICoderJXL
import WITestSupport

struct JXLRobustnessTests {
    static let hostile = Fixtures.files(in: "jxl").filter { $0.hasPrefix("bad-") }

    @Test(arguments: hostile)
    func hostileFilesGiveTypedErrors(_ file: String) {
        let error = #expect(throws: ImageError.self) {
            try JXLCoder().decode(Fixtures.data("jxl/\(file)"), options: .init())
        }
        #expect(error?.code == .badImageData, "\(file)")
    }

    @Test(arguments: [
        "progressive.jxl", "5_frames_numbered_jxli.jxl", "container-lossless.jxl",
        "jpeg-recompressed.jxl", "gray_alpha_lossless.jxl",
    ])
    func truncatedAndBitFlippedFilesNeverCrash(_ file: String) {
        let data = Fixtures.data("jxl/\(file)")
        for damaged in DataMutations.truncated(data) + DataMutations.bitFlipped(data) {
            do {
                let image = try JXLCoder().decode(damaged, options: .init())
                #expect(image.size.area > 0)
            } catch {
                #expect([ImageError.Code.badImageData, .pixelLimitExceeded].contains(error.code))
            }
        }
    }
}

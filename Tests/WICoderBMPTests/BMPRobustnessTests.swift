import Foundation
import Testing
import WICore
import WICoderBMP
import WICoderPNG
import WITestSupport

/// Truncated and bit-flipped copies of every fixture: a typed error or an image, never a crash, never slow.
@Suite struct BMPRobustnessTests {
    static let files = Fixtures.files(in: "bmp")
    static let coder = BMPCoder(pngCoder: PNGCoder())
    static let allowed: Set<ImageError.Code> = [.badImageData, .pixelLimitExceeded, .unsupportedFormat]

    @Test(arguments: files)
    func truncatedAndBitFlipped(file: String) {
        let data = Fixtures.data("bmp/\(file)")
        let inputs = DataMutations.truncated(data) + DataMutations.bitFlipped(data)
        let survey = DataMutations.survey(inputs, allowing: Self.allowed) { data throws(ImageError) in
            try Self.coder.decode(data, options: DecodeOptions(pixelLimit: 1024 * 1024))
        }
        #expect(survey.decoded + survey.failed == 132)
        #expect(survey.unexpected == [])
        #expect(survey.slowest < .seconds(1))
    }

    @Test func cuttingAnUncompressedFileKeepsTheRowsThatArrived() throws {
        let data = Fixtures.data("bmp/tm-24bitpalette.bmp")  // 320x200, 24-bit, bottom-up, rows of 960 bytes
        let complete = try Self.coder.decode(data, options: .init())
        let cut = try Self.coder.decode(data.prefix(54 + 960 * 50 + 100), options: .init())
        #expect(cut.flags == [.incomplete])
        #expect(cut.size == complete.size)
        #expect(cut.pixels.color(x: 5, y: 199) == complete.pixels.color(x: 5, y: 199))  // stored first
        #expect(cut.pixels.color(x: 5, y: 150) == complete.pixels.color(x: 5, y: 150))
        #expect(cut.pixels.color(x: 5, y: 149) == .clear)
    }
}

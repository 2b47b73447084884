import Foundation
import Testing
import WICore
import WITestSupport

@Suite struct SupportTests {
    @Test func seededRandomRepeats() {
        var a = SeededRandom(seed: 42)
        var b = SeededRandom(seed: 42)
        var c = SeededRandom(seed: 43)
        let first = (0..<5).map { _ in a.next() }
        #expect(first == (0..<5).map { _ in b.next() })
        #expect(first != (0..<5).map { _ in c.next() })
    }

    @Test func fixturesAreFound() {
        #expect(Fixtures.files(in: "pngsuite", withExtension: "png").count == 175)
        #expect(Fixtures.data("formats/sample.png").starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    /// A progressive coder whose incremental path ends in a different image than its one-shot decode.
    final class LyingCoder: ProgressiveImageCoder {
        let inner = MockCoder(magic: "MOCK", marker: 1)
        func canDecode(_ data: Data) -> Bool { inner.canDecode(data) }
        func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
            try inner.decode(data, options: options)
        }
        func makeIncrementalDecoder(header: Data, options: DecodeOptions) -> (any IncrementalImageDecoder)? {
            MockCoder(magic: "MOCK", marker: 2).makeIncrementalDecoder(header: header, options: options)
        }
    }

    @Test func verifierCatchesACoderWhoseIncrementalResultDiffers() throws {
        #expect(throws: ProgressiveCoderVerifier.Failure.self) {
            try ProgressiveCoderVerifier.verify(LyingCoder(), data: Data("MOCK and more bytes".utf8))
        }
        let report = try ProgressiveCoderVerifier.verify(
            MockCoder(magic: "MOCK", marker: 1), data: Data("MOCK bytes".utf8))
        #expect(report.runs == 5)
    }
}

@Suite struct DataMutationsTests {
    @Test func mutationsAreSeededAndDamaged() {
        let data = Data((0..<200).map { UInt8($0) })
        let flipped = DataMutations.bitFlipped(data, copies: 10)
        #expect(flipped == DataMutations.bitFlipped(data, copies: 10))
        #expect(flipped.count == 10 && flipped.allSatisfy { $0.count == 200 && $0 != data })
        let cuts = DataMutations.truncated(data, count: 20, below: 150)
        #expect(cuts.count == 20 && cuts.allSatisfy { $0.count < 150 && data.starts(with: $0) })
        #expect(cuts == DataMutations.truncated(data, count: 20, below: 150))
    }
}

@Suite struct DataMutationsSurveyTests {
    @Test func countsImagesAllowedErrorsAndTheRest() {
        let inputs = [Data([1]), Data([2]), Data([3]), Data([4])]
        let survey = DataMutations.survey(inputs) { data throws(ImageError) in
            switch data[0] {
            case 1: return Image(pixels: try PixelBuffer(width: 1, height: 1, format: .rgba8))
            case 2: throw ImageError(.badImageData, "bad")
            case 3: throw ImageError(.pixelLimitExceeded, "big")
            default: throw ImageError(.outOfMemory, "oom")
            }
        }
        #expect(survey.decoded == 1 && survey.failed == 2)
        #expect(survey.unexpected.count == 1 && survey.unexpected[0].hasPrefix("#3: ImageError 1006"))
        #expect(survey.slowest < .seconds(1))
    }
}

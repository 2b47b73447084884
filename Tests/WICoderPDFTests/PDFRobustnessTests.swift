import Foundation
import Testing
import WICore
import WICoderPDF
import WITestSupport

/// Truncated and bit-flipped documents: a typed error or an image, never a crash, never slow; and many decodes at
/// once.
@Suite struct PDFRobustnessTests {
    static let files = [
        "pdf/square.pdf", "pdf/three-pages.pdf", "pdf/rotated.pdf", "pdf/encrypted.pdf",
        "formats/sample.pdf",
    ]

    private static func attempt(_ data: Data, _ label: String) -> Bool {
        let started = DataMutations.processCPUTime()
        defer { #expect(DataMutations.processCPUTime() - started < .seconds(1), "\(label)") }
        do {
            let image = try PDFCoder(page: 1).decode(data, options: .init(pixelLimit: 4_000_000))
            #expect(image.flags.contains(.vector) && image.pixels.isOpaque)
            return true
        } catch {
            #expect(
                [.badImageData, .pixelLimitExceeded, .passwordRequired, .unsupportedFormat].contains(error.code),
                "\(label): \(error)")
            return false
        }
    }

    @Test(arguments: files)
    func truncatedAt32Offsets(file: String) {
        let cuts = DataMutations.truncated(Fixtures.data(file))
        #expect(cuts.count == 32)
        let outcomes = cuts.map { Self.attempt($0, "\(file) cut at \($0.count)") }
        #expect(outcomes.count == 32)
    }

    @Test(arguments: files)
    func hundredBitFlippedCopies(file: String) {
        let copies = DataMutations.bitFlipped(Fixtures.data(file))
        let outcomes = copies.enumerated().map { Self.attempt($0.element, "\(file) copy \($0.offset)") }
        #expect(outcomes.count == 100)
    }

    @Test func decodesFromManyTasksAtOnce() async throws {
        let cases: [(String, Int, String?)] = [
            ("pdf/square.pdf", 0, nil), ("pdf/three-pages.pdf", 2, nil),
            ("pdf/encrypted.pdf", 0, "user"), ("formats/sample.pdf", 0, nil),
        ]
        let serial = try cases.map {
            try PDFCoder(page: $0.1, password: $0.2).decode(Fixtures.data($0.0), options: .init()).pixels
        }
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<24 {
                group.addTask {
                    let (file, page, password) = cases[index % cases.count]
                    let image = try PDFCoder(page: page, password: password).decode(
                        Fixtures.data(file), options: .init())
                    return image.pixels == serial[index % cases.count]
                }
            }
            for try await same in group { #expect(same) }
        }
    }
}

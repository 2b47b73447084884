import Foundation
import Testing
import WICore
import WICoderSVG
import WITestSupport

/// Truncated and bit-flipped documents: a typed error or an image, never a crash, never slow; and many decodes at
/// once.
@Suite struct SVGRobustnessTests {
    static let files = [
        "svg/peers/twelvemonkeys-Android_robot.svg", "svg/peers/thumbor-Commons-logo-inches.svg",
        "svg/resvg/mask-color-interpolation_linearRGB.svg", "svg/resvg/pattern-attributes-via-xlink-href.svg",
        "formats/sample.svg",
    ]
    static let options = DecodeOptions(thumbnailPixelSize: .init(width: 64, height: 64))

    private static func attempt(_ data: Data, _ label: String) -> Bool {
        let started = DataMutations.processCPUTime()
        defer { #expect(DataMutations.processCPUTime() - started < .seconds(1), "\(label)") }
        do {
            let image = try SVGCoder().decode(data, options: options)
            #expect(image.flags.contains(.vector))
            return true
        } catch {
            #expect([.badImageData, .pixelLimitExceeded].contains(error.code), "\(label): \(error)")
            return false
        }
    }

    /// librsvg needs the whole XML document: every cut before the root's end tag fails, typed.
    @Test(arguments: files)
    func truncatedAt32Offsets(file: String) {
        let data = Fixtures.data(file)
        let cuts = DataMutations.truncated(data)
        #expect(cuts.count == 32)
        let decoded = cuts.filter { Self.attempt($0, "\(file) cut at \($0.count)") }.count
        #expect(decoded == 0)
    }

    @Test(arguments: files)
    func hundredBitFlippedCopies(file: String) {
        let copies = DataMutations.bitFlipped(Fixtures.data(file))
        #expect(copies.count == 100)
        let decoded = copies.enumerated().filter { Self.attempt($0.element, "\(file) copy \($0.offset)") }.count
        #expect(decoded > 0 && decoded < 100)  // flips in attribute values still render; flips in tags do not
    }

    @Test func decodesFromManyTasksAtOnce() async throws {
        let files = Self.files
        let serial = try files.map { try SVGCoder().decode(Fixtures.data($0), options: Self.options).pixels }
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<24 {
                group.addTask {
                    let file = index % files.count
                    return try SVGCoder().decode(Fixtures.data(files[file]), options: Self.options).pixels
                        == serial[file]
                }
            }
            for try await same in group { #expect(same) }
        }
    }
}

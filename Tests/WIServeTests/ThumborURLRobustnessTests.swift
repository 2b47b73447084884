import Foundation
import Testing
import WebImage
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// Hostile and malformed thumbor URLs: thousands of paths built from the grammar's own parts with random
/// arguments, then mutated byte by byte (seeded, so every run sees the same ones), parsed and, when they parse,
/// transformed on a small image. Nothing may trap or hang: a path is a 4xx with a reason, or an image within the
/// pixel limit, or an `ImageError`.
@Suite struct ThumborURLRobustnessTests {
    static let options = [
        "trim", "trim:bottom-right:5", "trim:9", "10x10:30x20", "0x0:99999999x3", "5x5:2x2", "fit-in",
        "full-fit-in", "adaptive-fit-in", "adaptive-full-fit-in", "0x0", "40x-30", "-0x-0", "origx20",
        "orig x", "3000x3000", "1x99999", "left", "right", "top", "bottom", "middle", "smart",
    ]
    static let filters = [
        "quality", "format", "no_upscale", "upscale", "blur", "rotate", "round_corner", "fill",
        "background_color", "strip_exif", "strip_icc", "brightness", "contrast", "rgb", "colorize",
        "curve", "saturation", "grayscale", "sharpen", "convolution", "watermark", "proportion",
        "stretch", "focal", "max_age", "max_bytes", "equalize", "frame",
    ]
    static let arguments = [
        "", "0", "1", "-1", "90", "150", "151", "2.5", "-0.5", "1e9", "nan", "inf", "255", "99999999",
        "true", "0", "ff8000", "0a0", "red", "transparent", "png", "webp", "1;2;1", "1;2;1;2;4;2;1;2;1",
        "3", "[(0,0),(255,255)]", "[(0,48)]", "[]", "[(5,0),(5,9)]", "10x10:20x20", "center", "repeat",
        "-10p", "50p", "none", "mark.png", "'mark.png'", "(", ")", "[", "]", "%41", "//", ":",
    ]
    static let alphabet = Array("()[],:;/-x0123456789.pftrim%' ".utf8)

    static func path(_ random: inout SeededRandom) -> String {
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        var parts: [String] = []
        for _ in 0..<Int(random.next() % 4) { parts.append(pick(options)) }
        if random.next() % 4 != 0 {
            let list = (0..<(1 + Int(random.next() % 3))).map { _ in
                "\(pick(filters))(\((0..<Int(random.next() % 5)).map { _ in pick(arguments) }.joined(separator: ",")))"
            }
            parts.append("filters:" + list.joined(separator: ":"))
        }
        var bytes = Array(("/unsafe/" + (parts + ["example.com/a.png"]).joined(separator: "/")).utf8)
        for _ in 0..<Int(random.next() % 4) where bytes.count > 9 {
            let at = 8 + Int(random.next() % UInt64(bytes.count - 8))
            switch random.next() % 3 {
            case 0: bytes.remove(at: at)
            case 1: bytes.insert(pick(alphabet), at: at)
            default: bytes[at] = pick(alphabet)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func everyPathIsARefusalOrAnImageWithinTheLimit() throws {
        var random = SeededRandom(seed: 26)
        let source = Image(
            pixels: try PixelBuffer(
                width: 37, height: 23, format: .rgba8,
                bytes: (0..<(37 * 23 * 4)).map { UInt8($0 % 251) }))
        let mark = Image(
            pixels: try PixelBuffer(width: 5, height: 3, format: .rgba8, bytes: Array(repeating: 200, count: 60)))
        // 5x5 whose bytes 14 and 22 are 255: thumbor 7.8's frame() reads a white border 1 pixel wide from it.
        let frame = Image(
            pixels: try PixelBuffer(
                width: 5, height: 5, format: .rgba8, bytes: (0..<100).map { [14, 22].contains($0) ? 255 : 0 }))
        let limit = 200_000
        var refused = 0
        var transformed = 0
        var failed = 0
        var codes: Set<ImageError.Code> = []
        for _ in 0..<20_000 {
            let text = Self.path(&random)
            let request: ThumborRequest
            do {
                request = try ThumborRequest.parse(path: text, strict: true)
            } catch {
                #expect(
                    [400, 404].contains(error.status.rawValue) && !error.reason.isEmpty && !error.reason.contains("\n"),
                    "\(text): \(error)")
                refused += 1
                continue
            }
            var transformer = ThumborTransformer(request: request, pixelLimit: limit)
            for filter in request.filters.of(ThumborFilters.Watermark.self) {
                transformer.watermarks[filter.mark.url] = mark
            }
            for filter in request.filters.of(ThumborFilters.Frame.self) { transformer.watermarks[filter.url] = frame }
            do {
                let output = try transformer.transform(source)
                #expect(output.width * output.height * output.frameCount <= limit, "\(text)")
                transformed += 1
            } catch {
                codes.insert(error.code)
                failed += 1
            }
        }
        // The same paths every run (seed 26): their outcomes, counted.
        #expect(refused + transformed + failed == 20_000)
        let outcomes: [Int] = [refused, transformed, failed]
        #expect(outcomes == [6_349, 12_688, 963], "refused \(refused), transformed \(transformed), failed \(failed)")
        // What a transform may fail with: a size over the pixel limit (1005) or one no transformer accepts (1009).
        #expect(codes == [.pixelLimitExceeded, .invalidArgument])
    }
}

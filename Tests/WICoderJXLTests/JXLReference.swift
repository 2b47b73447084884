import Foundation
import Testing
import WICore
import WICoderPNG
import WITestSupport

/// One line of Tests/Fixtures/jxl-reference.tsv (made by Tests/Fixtures/make-jxl-reference.sh with
/// ../shared/tools/refdecode.py: pillow-jxl-plugin for stills, the system libjxl for animations).
struct JXLReference: Sendable, CustomTestStringConvertible {
    var file: String
    var size: PixelSize
    var frameCount: Int
    var loopCount: Int?
    var durationsMilliseconds: [Int]
    var frameSHA256: [String]
    var testDescription: String { file }

    var data: Data { Fixtures.data("jxl/\(file)") }

    /// The first frame as the reference decoder wrote it, when the script kept it (images up to 128 x 128).
    var referenceFrame: PixelBuffer? {
        let path = "jxl-reference/\(file.dropLast(4)).png"
        guard FileManager.default.fileExists(atPath: Fixtures.url(path).path) else { return nil }
        return try? PNGCoder().decode(Fixtures.data(path), options: .init()).frames[0].pixels
    }

    static let all: [JXLReference] = String(decoding: Fixtures.data("jxl-reference.tsv"), as: UTF8.self)
        .split(separator: "\n").filter { !$0.hasPrefix("#") }
        .map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return JXLReference(
                file: f[0], size: PixelSize(width: Int(f[1])!, height: Int(f[2])!),
                frameCount: Int(f[3])!, loopCount: Int(f[4]),
                durationsMilliseconds: f[5].split(separator: ",").map { Int($0)! },
                frameSHA256: f[6].split(separator: ",").map(String.init))
        }

    static func named(_ file: String) -> JXLReference { all.first { $0.file == file }! }
}

/// Helpers shared by the JPEG XL tests.
enum JXLTestSupport {
    /// Peak signal-to-noise ratio over R, G, B and A of two same-size straight RGBA8 buffers (infinity when equal).
    static func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        let x = a.packedBytes()
        let y = b.packedBytes()
        precondition(x.count == y.count)
        var sum = 0.0
        for i in x.indices {
            let d = Double(x[i]) - Double(y[i])
            sum += d * d
        }
        return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / Double(x.count)))
    }
}

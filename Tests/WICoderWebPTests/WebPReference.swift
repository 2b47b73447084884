import Foundation
import Testing
import WICore
import WITestSupport

/// One line of Tests/Fixtures/webp-reference.tsv (made by Tests/Fixtures/make-webp-reference.sh from
/// ../shared/tools/refdecode.py, i.e. Pillow's composited frames).
struct WebPReference: Sendable, CustomTestStringConvertible {
    var file: String
    var size: PixelSize
    var frameCount: Int
    /// nil for stills.
    var loopCount: Int?
    var durationsMilliseconds: [Int]
    var frameSHA256: [String]
    var testDescription: String { file }

    var data: Data { Fixtures.data("webp/\(file)") }

    static let all: [WebPReference] = String(decoding: Fixtures.data("webp-reference.tsv"), as: UTF8.self)
        .split(separator: "\n").filter { !$0.hasPrefix("#") }
        .map { line in
            let f = line.split(separator: "\t").map(String.init)
            return WebPReference(
                file: f[0], size: PixelSize(width: Int(f[1])!, height: Int(f[2])!),
                frameCount: Int(f[3])!, loopCount: Int(f[4]),
                durationsMilliseconds: f[5].split(separator: ",").map { Int($0)! },
                frameSHA256: f[6].split(separator: ",").map(String.init))
        }

    static func named(_ file: String) -> WebPReference { all.first { $0.file == file }! }
}

/// Helpers shared by the WebP tests.
enum WebPTestSupport {
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

    /// The largest difference of any component.
    static func maxDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        zip(a.packedBytes(), b.packedBytes()).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// The RIFF chunks of a WebP file, top level (and inside ANMF when `frames`): four-character code and payload.
    static func chunks(_ data: Data, insideFrames: Bool = false) -> [(fourCC: String, payload: [UInt8])] {
        let bytes = [UInt8](data)
        func walk(_ start: Int, _ end: Int) -> [(String, [UInt8])] {
            var result: [(String, [UInt8])] = []
            var p = start
            while p + 8 <= end {
                let name = String(decoding: bytes[p..<p + 4], as: UTF8.self)
                let size =
                    Int(bytes[p + 4]) | Int(bytes[p + 5]) << 8 | Int(bytes[p + 6]) << 16 | Int(bytes[p + 7]) << 24
                guard p + 8 + size <= end else { break }
                let payload = Array(bytes[p + 8..<p + 8 + size])
                result.append((name, payload))
                if insideFrames && name == "ANMF" { result += walk(p + 8 + 16, p + 8 + size) }
                p += 8 + size + (size & 1)
            }
            return result
        }
        return walk(12, bytes.count)
    }
}

import Foundation
import WICore
import WICoderPNG
import WITestSupport

/// PSNR between decoded images and reference pixels, for lossy formats.
enum PixelComparison {
    /// PSNR in dB over the RGBA8 components of two same-sized buffers (colour of pixels transparent in both is
    /// ignored, as refdecode.py does); infinity when equal.
    static func psnr(_ a: PixelBuffer, _ b: PixelBuffer) throws -> Double { try PixelPSNR.rgba8(a, b) }

    /// PSNR in dB over the 16-bit RGBA components (peak 65535), for depth-preserving decodes.
    static func psnr16(_ a: PixelBuffer, _ b: PixelBuffer) throws -> Double {
        precondition(a.size == b.size, "sizes differ: \(a.size) vs \(b.size)")
        let x = try a.converted(to: .rgba16)
        let y = try b.converted(to: .rgba16)
        var sum = 0.0
        x.withUnsafeBytes { p in
            y.withUnsafeBytes { q in
                let (u, v) = (p.bindMemory(to: UInt16.self), q.bindMemory(to: UInt16.self))
                for i in 0..<(a.width * a.height * 4) {
                    let d = Double(u[i]) - Double(v[i])
                    sum += d * d
                }
            }
        }
        return sum == 0 ? .infinity : 10 * log10(65535 * 65535 / (sum / Double(a.width * a.height * 4)))
    }

    /// The largest difference of any component.
    static func maxDifference(_ a: PixelBuffer, _ b: PixelBuffer) throws -> Int {
        let x = try a.converted(to: .rgba8).packedBytes()
        let y = try b.converted(to: .rgba8).packedBytes()
        return zip(x, y).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// A PNG fixture's pixels (references and the sources the generated fixtures were encoded from).
    static func png(_ path: String, keep16Bit: Bool = false) throws -> PixelBuffer {
        try PNGCoder().decode(Fixtures.data(path), options: .init(keep16Bit: keep16Bit)).pixels
    }

    /// A `width` x `height` region of `buffer` starting at (`x`, `y`).
    static func crop(_ buffer: PixelBuffer, x: Int, y: Int, width: Int, height: Int) throws -> PixelBuffer {
        let source = try buffer.converted(to: .rgba8).packedBytes()
        var bytes: [UInt8] = []
        for row in y..<(y + height) {
            let start = (row * buffer.width + x) * 4
            bytes += source[start..<(start + width * 4)]
        }
        return try PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes)
    }
}

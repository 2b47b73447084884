import Foundation
import WICore

/// PSNR between two renderings or decodes, for tests of lossy or differently rasterizing paths.
///
/// Thread safety: stateless; safe from any thread.
public enum PixelPSNR {
    /// PSNR in dB over the RGBA8 components of two same-sized buffers (colour of pixels transparent in both is
    /// ignored, as refdecode.py does); infinity when equal.
    public static func rgba8(_ a: PixelBuffer, _ b: PixelBuffer) throws -> Double {
        precondition(a.size == b.size, "sizes differ: \(a.size) vs \(b.size)")
        let x = try a.converted(to: .rgba8).packedBytes()
        let y = try b.converted(to: .rgba8).packedBytes()
        var sum = 0.0
        var count = 0
        for i in stride(from: 0, to: x.count, by: 4) {
            let bothClear = x[i + 3] == 0 && y[i + 3] == 0
            for c in 0..<4 where c == 3 || !bothClear {
                let d = Double(x[i + c]) - Double(y[i + c])
                sum += d * d
                count += 1
            }
        }
        return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / Double(count)))
    }
}

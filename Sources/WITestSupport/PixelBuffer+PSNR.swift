import Foundation
import WICore

extension PixelBuffer {
    /// Peak signal-to-noise ratio in dB over all four components against `other` (same size; both converted to
    /// straight RGBA8 first); infinity when equal, nil when the sizes differ.
    public func psnr(against other: PixelBuffer) -> Double? {
        guard size == other.size, let a = try? converted(to: .rgba8).packedBytes(),
            let b = try? other.converted(to: .rgba8).packedBytes()
        else { return nil }
        var sum = 0.0
        for (x, y) in zip(a, b) {
            let d = Double(Int(x) - Int(y))
            sum += d * d
        }
        guard sum > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (sum / Double(a.count)))
    }
}

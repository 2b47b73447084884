#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import WICore

extension JXLCoder {
    public func canEncode(to format: ImageFormat) -> Bool { format == .jxl }

    /// Encodes a still (one frame, or `firstFrameOnly`) or an animation (durations in milliseconds, the loop
    /// count), lossy at a distance derived from `quality` or lossless (`lossless`: the same pixels back), scaled
    /// into `maxPixelSize`. 16-bit images are encoded with 16 bits per sample; alpha only when some pixel is not
    /// opaque. `maxFileSize` (lossy only) searches the quality as the other lossy coders do.
    public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        guard format == .jxl else { throw ImageError(.unsupportedFormat, "JXLCoder encodes JPEG XL, not \(format)") }
        var size = image.size
        if let box = options.maxPixelSize { size = ImageCoding.Geometry.scaledSize(of: size, toFit: box) }
        let wide = image.pixels.format.bitsPerComponent == 16
        var frames: [ImageFrame] = []
        for frame in options.firstFrameOnly ? [try image.frame(at: 0)] : try image.frames {
            let pixels = try options.effectiveResampler.resample(frame.pixels, to: size)
            frames.append(
                ImageFrame(pixels: try pixels.converted(to: wide ? .rgba16 : .rgba8), duration: frame.duration))
        }
        let encoder = JXLEncoder(frames: frames, loopCount: image.loopCount, effort: effort)
        guard let limit = options.maxFileSize, !options.lossless else {
            return try encoder.encode(distance: options.lossless ? nil : Self.distance(quality: options.quality))
        }
        var best = try encoder.encode(distance: Self.distance(quality: options.quality))
        guard best.count > limit else { return best }
        // Bisection over quality in steps of 1/100: `low` fits (or is 0), `high` does not.
        var low = 0
        var high = Int((min(1, max(0, options.quality)) * 100).rounded(.down))
        best = try encoder.encode(distance: Self.distance(quality: 0))
        if best.count > limit { return best }
        while high - low > 1 {
            let middle = (low + high) / 2
            let file = try encoder.encode(distance: Self.distance(quality: Double(middle) / 100))
            if file.count <= limit {
                low = middle
                best = file
            } else {
                high = middle
            }
        }
        return best
    }

    /// The Butteraugli distance for a quality in 0...1, on cjxl's quality scale (q = 100 x quality): 0.1 at
    /// q 100, then 0.09 per step down to q 30 (distance 6.4), steeper below; at most 25 (libjxl's limit).
    static func distance(quality: Double) -> Float {
        let q = min(100, max(0, quality * 100))
        let distance = q >= 30 ? 0.1 + (100 - q) * 0.09 : 6.4 + pow(2.5, (30 - q) / 5) / 6.25
        return Float(min(25, distance))
    }
}

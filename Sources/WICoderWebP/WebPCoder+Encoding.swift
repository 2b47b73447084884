#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
import WICoderSupport

extension WebPCoder {
    public func canEncode(to format: ImageFormat) -> Bool { format == .webp }

    /// Encodes a still (one frame, or `firstFrameOnly`) or an animation, lossy at `quality` or lossless, scaled
    /// into `maxPixelSize`, with the image's ICC/EXIF/XMP (EXIF orientation rewritten to the pixels' own).
    ///
    /// `maxFileSize` (lossy only; a lossless file has no quality to trade) searches the quality: the best quality
    /// not above `options.quality` whose file fits, or the quality-0 file when even that is larger.
    public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        guard format == .webp else { throw ImageError(.unsupportedFormat, "WebPCoder encodes WebP, not \(format)") }
        var size = image.size
        if let box = options.maxPixelSize { size = ImageCoding.Geometry.scaledSize(of: size, toFit: box) }
        var frames: [ImageFrame] = []
        for frame in options.firstFrameOnly ? [try image.frame(at: 0)] : try image.frames {
            frames.append(
                ImageFrame(
                    pixels: try options.effectiveResampler.resample(frame.pixels, to: size),
                    duration: frame.duration))
        }
        var metadata = image.metadata
        metadata.exif = metadata.exif.map {
            ImageCoding.ExifReader.replacingOrientation(in: $0, with: image.orientation)
        }
        metadata.xmp = metadata.xmp.map { ImageCoding.XMPReader.replacingOrientation(in: $0, with: image.orientation) }
        let settings = configuration
        let encodeAt = { (quality: Double) throws(ImageError) -> Data in
            let config = try WebPPictureEncoder.config(quality: quality, lossless: options.lossless, settings)
            let file =
                if frames.count == 1 {
                    try WebPPictureEncoder.encode(frames[0].pixels, config: config)
                } else {
                    try WebPAnimationEncoder.encode(
                        frames, loopCount: image.loopCount, config: config, settings: settings)
                }
            return try WebPMetadataWriter.attach(metadata, to: file)
        }
        guard let limit = options.maxFileSize, !options.lossless else { return try encodeAt(options.quality) }
        return try Self.largestFitting(limit, upTo: options.quality, encodeAt)
    }

    /// The file at the highest quality (in steps of 1/100, up to `quality`) whose size is at most `limit`,
    /// by bisection; the quality-0 file when none fits.
    static func largestFitting(
        _ limit: Int, upTo quality: Double,
        _ encode: (Double) throws(ImageError) -> Data
    ) throws(ImageError) -> Data {
        let best = try encode(quality)
        if best.count <= limit { return best }
        var fitting = try encode(0)
        if fitting.count > limit { return fitting }
        var low = 0
        var high = Int((min(1, max(0, quality)) * 100).rounded(.down))  // low fits, high does not
        while high - low > 1 {
            let middle = (low + high) / 2
            let file = try encode(Double(middle) / 100)
            if file.count <= limit {
                low = middle
                fitting = file
            } else {
                high = middle
            }
        }
        return fitting
    }
}

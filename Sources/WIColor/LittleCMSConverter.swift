#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
internal import CLCMSShim

/// Converts decoded pixels to sRGB with Little CMS 2: perceptual intent with black-point compensation, to lcms's
/// built-in sRGB profile; RGB, grey and CMYK ICC profiles (v2 and v4), and PNG's gAMA/cHRM and cICP or HEIF's nclx
/// descriptions turned into a profile. 16-bit pixels are converted at 16 bits, narrowed by the same transform.
///
/// liblcms2 is opened on the first conversion (`LittleCMSLibrary`). A profile lcms cannot read or make a transform
/// from, or one of another colour space than the pixels, gives nil (`ImageCoding.ColorConverter`'s fallback: the pixels
/// stay as decoded); so does a description it has no curve for (PQ, HLG). No liblcms2 in the process:
/// `.unsupportedFormat`.
///
/// ```swift
/// let coders = ImageCodersManager(coders: [JPEGCoder(), PNGCoder()], colorConverter: LittleCMSConverter())
/// ```
///
/// Thread safety: safe from any number of threads at once; its transform cache is behind a lock, and a transform
/// (made with lcms's `cmsFLAGS_NOCACHE`) runs on several threads at once.
public struct LittleCMSConverter: ImageCoding.ColorConverter {
    /// The transforms made last, by source, layout and depth.
    private let transforms: LittleCMSTransforms

    /// How many transforms this converter keeps now (for tests).
    package var cachedTransformCount: Int { transforms.count }

    /// A converter that keeps the last `cachedTransforms` transforms it made (a profile met again, as a site's
    /// photos or an image's thumbnails meet it, skips lcms's transform set-up: about 1.8 ms for a Display P3
    /// matrix-shaper, more for a CMYK table); 0 keeps none.
    public init(cachedTransforms: Int = 8) {
        transforms = LittleCMSTransforms(capacity: max(0, cachedTransforms))
    }

    public func convertToSRGB(_ pixels: PixelBuffer, describedBy metadata: ImageMetadata, keep16Bit: Bool)
        throws(ImageError) -> PixelBuffer?
    {
        let wide = pixels.format.bitsPerComponent == 16
        var straight = pixels
        if pixels.format.isPremultiplied { straight = try pixels.converted(to: wide ? .rgba16 : .rgba8) }
        let layout = wide ? WI_LCMS_RGBA16 : WI_LCMS_RGBA8
        if let profile = metadata.iccProfile {
            return try convert(straight, layout: layout, source: .profile(profile), out16: wide && keep16Bit)
        }
        guard let description = metadata.colorDescription, Self.space(for: description) != nil else { return nil }
        return try convert(straight, layout: layout, source: .description(description), out16: wide && keep16Bit)
    }

    public func convertCMYKToSRGB(_ samples: PixelBuffer, inverted: Bool, profile: Data) throws(ImageError)
        -> PixelBuffer?
    {
        guard samples.format == .rgba8 else {
            throw ImageError(.invalidArgument, "CMYK samples come in an RGBA8 buffer, not \(samples.format)")
        }
        return try convert(
            samples, layout: inverted ? WI_LCMS_CMYK8_INVERTED : WI_LCMS_CMYK8, source: .profile(profile),
            out16: false)
    }

    /// `pixels` in `layout` converted to a new sRGB buffer by the transform from `source` (made, or taken from
    /// `transforms`); nil when lcms cannot use the source (its reason is not kept: the caller falls back to the
    /// pixels as decoded).
    private func convert(
        _ pixels: PixelBuffer, layout: wi_lcms_layout, source: LittleCMSTransforms.Source, out16: Bool
    ) throws(ImageError) -> PixelBuffer? {
        try LittleCMSLibrary.load()
        let key = LittleCMSTransforms.Key(source: source, layout: layout.rawValue, out16: out16)
        guard let transform = try transforms.transform(for: key) else { return nil }
        var output = try PixelBuffer(
            width: pixels.width, height: pixels.height, format: out16 ? .rgba16 : .rgba8, zeroed: false)
        let outputStride = output.bytesPerRow
        let inputStride = pixels.bytesPerRow
        try output.withUnsafeMutableBytes { out throws(ImageError) in
            try pixels.withUnsafeBytes { input throws(ImageError) in
                // In bands of 32 rows, the pool job's cancellation looked at between them (a 12 MP photo takes
                // about 150 ms whole; a band of a 4000-pixel row, about 1.5 ms).
                for top in stride(from: 0, to: pixels.height, by: 32) {
                    try WorkerPool.checkCancellation()
                    wi_lcms_transform_apply(
                        transform.pointer, input.baseAddress! + top * inputStride, inputStride,
                        out.baseAddress! + top * outputStride, outputStride, UInt32(pixels.width),
                        UInt32(min(32, pixels.height - top)))
                }
            }
        }
        return output
    }
}

extension LittleCMSConverter: LibraryOpeningConverter {
    /// Opens liblcms2 and converts one pixel: lcms's first profile creation reads the time zone
    /// (/etc/localtime, through glibc), which a decode worker's sandbox would refuse later.
    package func openLibraries() {
        guard (try? LittleCMSLibrary.load()) != nil,
            let pixel = try? PixelBuffer(width: 1, height: 1, format: .rgba8, bytes: [128, 64, 32, 255])
        else { return }
        var metadata = ImageMetadata()
        metadata.colorDescription = .cicp(.init(primaries: 12, transfer: 13, matrix: 0, fullRange: true))
        _ = try? convertToSRGB(pixel, describedBy: metadata, keep16Bit: false)
    }
}

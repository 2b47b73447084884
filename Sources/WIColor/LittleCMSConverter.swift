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
/// Thread safety: a value type with no shared state; each conversion has its own lcms context.
public struct LittleCMSConverter: ImageCoding.ColorConverter {
    /// A converter (it holds no state: every conversion makes its own lcms context).
    public init() {}

    public func convertToSRGB(_ pixels: PixelBuffer, describedBy metadata: ImageMetadata, keep16Bit: Bool)
        throws(ImageError) -> PixelBuffer?
    {
        let wide = pixels.format.bitsPerComponent == 16
        var straight = pixels
        if pixels.format.isPremultiplied { straight = try pixels.converted(to: wide ? .rgba16 : .rgba8) }
        let layout = wide ? WI_LCMS_RGBA16 : WI_LCMS_RGBA8
        if let profile = metadata.iccProfile {
            return try convert(straight, layout: layout, profile: profile, space: nil, out16: wide && keep16Bit)
        }
        guard let description = metadata.colorDescription, let space = Self.space(for: description) else {
            return nil
        }
        return try convert(straight, layout: layout, profile: nil, space: space, out16: wide && keep16Bit)
    }

    public func convertCMYKToSRGB(_ samples: PixelBuffer, inverted: Bool, profile: Data) throws(ImageError)
        -> PixelBuffer?
    {
        guard samples.format == .rgba8 else {
            throw ImageError(.invalidArgument, "CMYK samples come in an RGBA8 buffer, not \(samples.format)")
        }
        return try convert(
            samples, layout: inverted ? WI_LCMS_CMYK8_INVERTED : WI_LCMS_CMYK8, profile: profile, space: nil,
            out16: false)
    }

    /// The one call into the shim: `pixels` in `layout`, from `profile` or `space`, to a new sRGB buffer; nil when
    /// lcms cannot use the source (its reason is not kept: the caller falls back to the pixels as decoded).
    private func convert(
        _ pixels: PixelBuffer, layout: wi_lcms_layout, profile: Data?, space: wi_lcms_rgb_space?, out16: Bool
    ) throws(ImageError) -> PixelBuffer? {
        try LittleCMSLibrary.load()
        var output = try PixelBuffer(
            width: pixels.width, height: pixels.height, format: out16 ? .rgba16 : .rgba8, zeroed: false)
        let outputStride = output.bytesPerRow
        let icc = profile.map { [UInt8]($0) }
        var rgb = space ?? wi_lcms_rgb_space()
        let hasSpace = space != nil
        let status = try output.withUnsafeMutableBytes { out throws(ImageError) -> wi_lcms_status in
            pixels.withUnsafeBytes { input in
                withUnsafePointer(to: &rgb) { rgbPointer in
                    var message = [CChar](repeating: 0, count: 256)
                    let count = message.count
                    return message.withUnsafeMutableBufferPointer { text in
                        (icc ?? []).withUnsafeBytes { iccBytes in
                            wi_lcms_convert_to_srgb(
                                icc == nil ? nil : iccBytes.baseAddress, iccBytes.count,
                                hasSpace ? rgbPointer : nil, layout, input.baseAddress, pixels.bytesPerRow,
                                out16 ? 1 : 0, out.baseAddress, outputStride, UInt32(pixels.width),
                                UInt32(pixels.height), text.baseAddress, count)
                        }
                    }
                }
            }
        }
        switch status {
        case WI_LCMS_OK: return output
        case WI_LCMS_OUT_OF_MEMORY: throw ImageError(.outOfMemory, "Little CMS: out of memory")
        default: return nil
        }
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

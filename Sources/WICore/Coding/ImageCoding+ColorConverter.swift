#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageCoding {
    /// Converts decoded pixels from the colour space their file describes to sRGB (WIColor's `LittleCMSConverter`).
    ///
    /// An `ImageCodersManager` made with a converter uses it for every decode whose options ask for
    /// `DecodeOptions.TargetColorSpace.sRGB`, after the coder's decode-time downscale (thumbnails convert at their own
    /// size), and drops the profile from the image's metadata.
    ///
    /// ```swift
    /// let coders = ImageCodersManager(coders: [JPEGCoder()], colorConverter: LittleCMSConverter())
    /// var options = DecodeOptions()
    /// options.targetColorSpace = .sRGB
    /// let image = try coders.decode(data, options: options)
    /// ```
    ///
    /// Thread safety: converters are `Sendable` and must convert from any number of threads at once.
    public protocol ColorConverter: Sendable {
        /// `pixels` (RGBA8 or RGBA16, straight alpha) in the colour space `metadata` describes (its ICC profile, else
        /// its colour description), converted to sRGB: RGBA16 when `keep16Bit` and `pixels` are 16-bit, else RGBA8.
        /// Nil when the description cannot be used (an unreadable or hostile profile, a profile of another colour
        /// space than the pixels'); callers then keep the pixels as they are. Errors: `.outOfMemory`.
        func convertToSRGB(_ pixels: PixelBuffer, describedBy metadata: ImageMetadata, keep16Bit: Bool)
            throws(ImageError) -> PixelBuffer?

        /// CMYK samples held in an RGBA8 buffer's four channels (C, M, Y, K; `inverted` when 255 means no ink, as
        /// Adobe's JPEGs store them) converted to sRGB RGBA8 (opaque) with the CMYK ICC `profile`; nil when the profile
        /// cannot be used. Errors: `.outOfMemory`.
        func convertCMYKToSRGB(_ samples: PixelBuffer, inverted: Bool, profile: Data) throws(ImageError) -> PixelBuffer?
    }
}

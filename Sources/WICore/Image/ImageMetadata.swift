#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Metadata carried from the file: colour profile or description, EXIF and XMP as raw bytes, and a cursor's hotspot.
///
/// Thread safety: a value type; safe to send and share.
public struct ImageMetadata: Hashable, Sendable {
    /// The ICC colour profile (applied only when decoding to `DecodeOptions.TargetColorSpace.sRGB`, which drops it;
    /// otherwise pixels stay in the file's colour space).
    public var iccProfile: Data?
    /// The file's colour description when it is not an ICC profile (PNG sRGB, gAMA, cHRM, cICP; HEIF nclx); a
    /// file with both keeps both, and converters use the ICC profile. Nil when the file says nothing.
    public var colorDescription: ColorDescription?
    /// The EXIF block as a TIFF structure (no "Exif\0\0" prefix).
    public var exif: Data?
    /// The XMP packet.
    public var xmp: Data?
    /// A cursor's hotspot (CUR files): the pixel that points, in the decoded image's pixels (scaled with it).
    public var cursorHotspot: ImageCoding.PixelPoint?

    public init(iccProfile: Data? = nil, exif: Data? = nil, xmp: Data? = nil) {
        self.iccProfile = iccProfile
        self.exif = exif
        self.xmp = xmp
        self.cursorHotspot = nil
        self.colorDescription = nil
    }

    /// Whether the file describes its colours (an ICC profile or a colour description other than sRGB), so that
    /// pixels decoded to sRGB need converting.
    public var describesNonSRGBColor: Bool {
        iccProfile != nil || (colorDescription.map { !$0.isSRGB } ?? false)
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Metadata carried from the file: colour profile, EXIF and XMP as raw bytes, and a cursor's hotspot.
///
/// Thread safety: a value type; safe to send and share.
public struct ImageMetadata: Hashable, Sendable {
    /// The ICC colour profile (not applied: pixels stay in the file's colour space).
    public var iccProfile: Data?
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
    }
}

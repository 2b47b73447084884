#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// The smallest EXIF block the encoder writes when an image needs an orientation but brought no EXIF of its own.
enum JPEGExif {
    /// A big-endian TIFF structure whose IFD0 holds only the orientation tag (0x0112, SHORT).
    static func minimal(orientation: ImageOrientation) -> Data {
        let value = UInt8(orientation.rawValue)
        return Data([
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // "MM", 42, IFD0 at 8
            0x00, 0x01,  // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01,  // orientation, SHORT, count 1
            0x00, value, 0x00, 0x00,  // the value, padded
            0x00, 0x00, 0x00, 0x00,
        ])  // no next IFD
    }
}

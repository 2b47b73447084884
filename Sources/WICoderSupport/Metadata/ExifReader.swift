#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

import WICore

extension ImageCoding {
    /// Reads the few EXIF fields the framework acts on, from the TIFF structure inside JPEG APP1, PNG eXIf,
    /// WebP EXIF or HEIF Exif items. Shared by every coder; never trusts an offset.
    public enum ExifReader {
        /// The orientation (tag 0x0112 of IFD0) in an EXIF block, with or without the "Exif\0\0" prefix; nil when
        /// the block is malformed or has no valid orientation.
        public static func orientation(in exif: Data) -> ImageOrientation? {
            guard let location = orientationValueOffset(in: exif) else { return nil }
            let i = exif.startIndex + location.offset
            let (a, b) = (Int(exif[i]), Int(exif[i + 1]))
            return ImageOrientation(rawValue: location.littleEndian ? a | b << 8 : a << 8 | b)
        }
    }
}

extension ImageCoding.ExifReader {
    /// A copy of `exif` whose orientation tag says `orientation`; `exif` unchanged when it has no valid tag.
    ///
    /// Encoders write this so that a file whose pixels were already turned upright does not turn them again.
    public static func replacingOrientation(in exif: Data, with orientation: ImageOrientation) -> Data {
        guard let location = orientationValueOffset(in: exif) else { return exif }
        var copy = exif
        let index = copy.startIndex + location.offset
        let value = UInt8(orientation.rawValue)
        copy[index] = location.littleEndian ? value : 0
        copy[index + 1] = location.littleEndian ? 0 : value
        return copy
    }

    /// Where the orientation value's two bytes sit in `exif`, and their byte order.
    private static func orientationValueOffset(in exif: Data) -> (offset: Int, littleEndian: Bool)? {
        guard let structure = ExifStructure(exif), let at = structure.entry(0x0112) else { return nil }
        // SHORT, value stored inline in the entry's first two value bytes.
        guard structure.u16(at + 2) == 3, structure.u16(at + 8) != nil else { return nil }
        return (structure.start + at + 8, structure.littleEndian)
    }
}

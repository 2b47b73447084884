#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

/// The TIFF structure of an EXIF block, read without trusting any offset: its byte order and IFD0's entries.
struct ExifStructure {
    let bytes: [UInt8]
    /// Where the TIFF header starts (6 after an "Exif\0\0" prefix).
    let start: Int
    let littleEndian: Bool
    /// IFD0's offset and entry count.
    private var ifd = 0
    private var count = 0

    /// Nil unless `exif` has a TIFF header and a readable IFD0.
    init?(_ exif: Data) {
        bytes = [UInt8](exif)
        start = bytes.starts(with: Array("Exif\0\0".utf8)) ? 6 : 0
        guard bytes.count >= start + 8 else { return nil }
        switch (bytes[start], bytes[start + 1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        guard let ifd = u32(4), u16(2) == 42, let count = u16(ifd) else { return nil }
        self.ifd = ifd
        self.count = count
    }

    /// The 16-bit value at `at` from the TIFF header, nil out of bounds.
    func u16(_ at: Int) -> Int? {
        let i = start + at
        guard at >= 0, i + 2 <= bytes.count else { return nil }
        return littleEndian ? Int(bytes[i]) | Int(bytes[i + 1]) << 8 : Int(bytes[i]) << 8 | Int(bytes[i + 1])
    }

    /// The 32-bit value at `at` from the TIFF header, nil out of bounds.
    func u32(_ at: Int) -> Int? {
        guard let a = u16(at), let b = u16(at + 2) else { return nil }
        return littleEndian ? b << 16 | a : a << 16 | b
    }

    /// The offset (from the TIFF header) of IFD0's entry for `tag`, nil when absent or past the end.
    func entry(_ tag: Int) -> Int? {
        for index in 0..<count {
            let at = ifd + 2 + index * 12
            guard let found = u16(at) else { return nil }
            if found == tag { return at }
        }
        return nil
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The TIFF structure of an EXIF block, read without trusting any offset: its byte order and IFD0's entries.
package struct ExifStructure {
    package let bytes: [UInt8]
    /// Where the TIFF header starts (6 after an "Exif\0\0" prefix).
    package let start: Int
    package let littleEndian: Bool
    /// IFD0's offset and entry count.
    private var ifd = 0
    private var count = 0

    /// Nil unless `exif` has a TIFF header and a readable IFD0.
    package init?(_ exif: Data) {
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
    package func u16(_ at: Int) -> Int? {
        let i = start + at
        guard at >= 0, i + 2 <= bytes.count else { return nil }
        return littleEndian ? Int(bytes[i]) | Int(bytes[i + 1]) << 8 : Int(bytes[i]) << 8 | Int(bytes[i + 1])
    }

    /// The 32-bit value at `at` from the TIFF header, nil out of bounds.
    package func u32(_ at: Int) -> Int? {
        guard let a = u16(at), let b = u16(at + 2) else { return nil }
        return littleEndian ? b << 16 | a : a << 16 | b
    }

    /// The offset (from the TIFF header) of IFD0's entry for `tag`, nil when absent or past the end.
    package func entry(_ tag: Int) -> Int? {
        for index in 0..<count {
            let at = ifd + 2 + index * 12
            guard let found = u16(at) else { return nil }
            if found == tag { return at }
        }
        return nil
    }
}

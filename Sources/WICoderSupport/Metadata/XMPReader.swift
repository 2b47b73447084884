#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

import WICore

extension ImageCoding {
    /// Reads and rewrites the orientation an XMP packet carries (`tiff:Orientation`), for files whose EXIF has none:
    /// some editors write it only there (SDWebImage's TestJFIF.jpg: an EXIF block with an empty IFD0, the XMP
    /// saying "Rotate 180"). Pillow's `getexif()` falls back to it the same way, and Apple's ImageIO honours it.
    ///
    /// Only the `tiff:` prefix is recognised (as Pillow), as an attribute (`tiff:Orientation="3"`, either quote) or
    /// an element (`<tiff:Orientation>3</tiff:Orientation>`); values outside 1...8 are ignored. Thread safety: pure
    /// functions of their arguments.
    public enum XMPReader {
        /// The `tiff:Orientation` in an XMP packet; nil when it has none or its value is not 1...8.
        public static func orientation(in xmp: Data) -> ImageOrientation? {
            orientationDigit(in: xmp).flatMap { ImageOrientation(rawValue: Int(xmp[$0] - UInt8(ascii: "0"))) }
        }

        /// A copy of `xmp` whose `tiff:Orientation` says `orientation` (the one digit replaced, so the packet keeps
        /// its length); `xmp` unchanged when it has no valid value. Encoders write this beside the EXIF's rewritten
        /// orientation, so that pixels already turned upright are not turned again by a reader of the XMP.
        public static func replacingOrientation(in xmp: Data, with orientation: ImageOrientation) -> Data {
            guard let index = orientationDigit(in: xmp) else { return xmp }
            var copy = xmp
            copy[index] = UInt8(ascii: "0") + UInt8(orientation.rawValue)
            return copy
        }

        /// The index of the single digit 1-8 that is the first `tiff:Orientation`'s value.
        private static func orientationDigit(in xmp: Data) -> Data.Index? {
            let name = Array("tiff:Orientation".utf8)
            let bytes = xmp
            var start = bytes.startIndex
            while let found = bytes[start...].firstRange(of: name) {
                start = found.upperBound
                var i = found.upperBound
                func skipSpaces() { while i < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 } }
                skipSpaces()
                guard i < bytes.endIndex else { return nil }
                if bytes[i] == UInt8(ascii: "=") {
                    i += 1
                    skipSpaces()
                    guard i < bytes.endIndex, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                        continue
                    }
                    i += 1
                } else if bytes[i] == UInt8(ascii: ">") {
                    i += 1
                    skipSpaces()
                } else {
                    continue  // another name that starts the same (tiff:OrientationX) or a closing tag
                }
                guard i < bytes.endIndex, (UInt8(ascii: "1")...UInt8(ascii: "8")).contains(bytes[i]) else { continue }
                let next = bytes.index(after: i)
                guard next == bytes.endIndex || !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[next]) else {
                    continue
                }
                return i
            }
            return nil
        }
    }
}

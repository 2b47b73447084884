import Foundation
import Testing
import WICore
import WICoderSupport

@Suite struct ExifReaderTests {
    /// A minimal TIFF structure with one IFD0 entry: orientation (0x0112, SHORT, 1) = value.
    static func exif(orientation: UInt16, littleEndian: Bool, prefix: Bool = false) -> Data {
        func u16(_ v: UInt16) -> [UInt8] {
            littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        func u32(_ v: UInt32) -> [UInt8] {
            littleEndian
                ? u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) : u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF))
        }
        var bytes: [UInt8] = prefix ? Array("Exif\0\0".utf8) : []
        bytes += littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        bytes += u16(42) + u32(8)
        bytes += u16(2)  // two entries
        bytes += u16(0x010F) + u16(2) + u32(4) + u32(0)  // Make (ignored)
        bytes += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0)
        bytes += u32(0)
        return Data(bytes)
    }

    @Test(arguments: 1...8)
    func readsEveryOrientationInBothByteOrders(value: Int) {
        for littleEndian in [true, false] {
            for prefix in [true, false] {
                let data = Self.exif(orientation: UInt16(value), littleEndian: littleEndian, prefix: prefix)
                #expect(ImageCoding.ExifReader.orientation(in: data) == ImageOrientation(rawValue: value))
            }
        }
    }

    @Test func malformedBlocksGiveNil() {
        #expect(ImageCoding.ExifReader.orientation(in: Data()) == nil)
        #expect(ImageCoding.ExifReader.orientation(in: Self.exif(orientation: 9, littleEndian: true)) == nil)
        #expect(ImageCoding.ExifReader.orientation(in: Self.exif(orientation: 6, littleEndian: true).prefix(20)) == nil)
        var badOffset = [UInt8](Self.exif(orientation: 6, littleEndian: true))
        badOffset[4] = 0xFF  // IFD offset far past the end
        #expect(ImageCoding.ExifReader.orientation(in: Data(badOffset)) == nil)
        #expect(ImageCoding.ExifReader.orientation(in: Data("II*\0".utf8)) == nil)
    }

    @Test func rewritesTheOrientation() {
        for littleEndian in [true, false] {
            let original = Self.exif(orientation: 6, littleEndian: littleEndian, prefix: true)
            let rewritten = ImageCoding.ExifReader.replacingOrientation(in: original, with: .up)
            #expect(ImageCoding.ExifReader.orientation(in: rewritten) == .up)
            #expect(rewritten.count == original.count)
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The ISOBMFF container around a JPEG XL codestream, rewritten where libjxl 0.7 misreads it.
///
/// A box whose 32-bit size field is 1 carries its size in a 64-bit field after the type (ISO/IEC 18181-2 and
/// ISO/IEC 14496-12 allow it for any box). libjxl 0.7 refuses such a box: "the second box must be the ftyp box"
/// for an extended `ftyp`, a truncated file for an extended `jxlc` or any other box (libjxl's own test file
/// `boxes/square-extended-size-container.jxl`; later libjxl versions read it). `compatible(_:)` gives the same
/// boxes with 8-byte headers, which every version reads.
///
/// Thread safety: stateless; call from any thread.
enum JXLContainer {
    /// The 12-byte signature box that starts every container.
    static let signature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    /// `data` with every extended-size box header (size field 1, 64-bit size whose box fits a 32-bit size) rewritten
    /// as an 8-byte header; `data` itself when it is a bare codestream or has no such box. The walk stops at a box
    /// that runs to the end of the file (size 0) or a malformed header, leaving the rest as it is for libjxl to judge.
    static func compatible(_ data: Data) -> Data {
        guard data.count > signature.count, data.prefix(signature.count).elementsEqual(signature) else { return data }
        let extended = extendedBoxes(in: data)
        guard !extended.isEmpty else { return data }
        var result = Data(capacity: data.count)
        var copied = 0
        for box in extended {
            result.append(data[data.startIndex + copied..<data.startIndex + box.offset])
            let size = UInt32(box.size - 8)
            result.append(contentsOf: [
                UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF),
            ])
            result.append(data[data.startIndex + box.offset + 4..<data.startIndex + box.offset + 8])  // the type
            copied = box.offset + 16
        }
        result.append(data[(data.startIndex + copied)...])
        return result
    }

    /// The offsets and 64-bit sizes of the extended-size boxes that can be rewritten, in file order.
    private static func extendedBoxes(in data: Data) -> [(offset: Int, size: Int)] {
        func bigEndian(_ offset: Int, _ count: Int) -> UInt64 {
            (0..<count).reduce(0) { $0 << 8 | UInt64(data[data.startIndex + offset + $1]) }
        }
        var boxes: [(offset: Int, size: Int)] = []
        var offset = 0
        while offset + 8 <= data.count {
            var size = bigEndian(offset, 4)
            if size == 1 {
                guard offset + 16 <= data.count else { break }
                size = bigEndian(offset + 8, 8)
                guard size >= 16, size - 8 <= UInt64(UInt32.max) else { break }
                boxes.append((offset, Int(size)))
            } else if size < 8 {
                break  // 0: the last box, to the end of the file; 2-7: malformed
            }
            guard size <= UInt64(data.count - offset) else { break }
            offset += Int(size)
        }
        return boxes
    }
}

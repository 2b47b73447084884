#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// Bounds-checked little-endian reads over a file's bytes: every read names what it reads, and a read past the end
/// throws `.badImageData` instead of trapping.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer

    var count: Int { bytes.count }

    /// Runs `body` with a reader over `data`'s bytes.
    static func read<R>(_ data: Data, _ body: (ByteReader) throws(ImageError) -> R) throws(ImageError) -> R {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(ImageError) -> R in try body(ByteReader(bytes: raw)) }
        }
        return try result.get()
    }

    /// Whether `length` bytes from `offset` lie inside the data (false for negative or overflowing ranges).
    func contains(_ offset: Int, _ length: Int) -> Bool {
        guard offset >= 0, length >= 0 else { return false }
        let (end, overflow) = offset.addingReportingOverflow(length)
        return !overflow && end <= bytes.count
    }

    func u8(_ offset: Int, _ what: @autoclosure () -> String) throws(ImageError) -> Int {
        try check(offset, 1, what())
        return Int(bytes[offset])
    }

    func u16(_ offset: Int, _ what: @autoclosure () -> String) throws(ImageError) -> Int {
        try check(offset, 2, what())
        return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    func u32(_ offset: Int, _ what: @autoclosure () -> String) throws(ImageError) -> UInt32 {
        try check(offset, 4, what())
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }

    func i32(_ offset: Int, _ what: @autoclosure () -> String) throws(ImageError) -> Int {
        Int(Int32(bitPattern: try u32(offset, what())))
    }

    private func check(_ offset: Int, _ length: Int, _ what: String) throws(ImageError) {
        guard contains(offset, length) else {
            throw ImageError(
                .badImageData, "BMP: the file ends before its \(what) (offset \(offset), \(bytes.count) bytes)")
        }
    }
}

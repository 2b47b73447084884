#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A rectangle of pixels in one `PixelFormat`, held in shared, copy-on-write memory.
///
/// Copying a `PixelBuffer` copies a reference, never the pixels; the first write through
/// `withUnsafeMutableBytes` to a shared buffer makes a private copy. Rows may be padded: `bytesPerRow` is at least
/// `width * format.bytesPerPixel`.
///
/// ```swift
/// var buffer = try PixelBuffer(width: 2, height: 1, format: .rgba8)
/// try buffer.withUnsafeMutableBytes { $0[0] = 255; $0[3] = 255 }   // first pixel opaque red
/// ```
///
/// Thread safety: a value type whose memory is read-only once shared; safe to send and read from any thread.
public struct PixelBuffer: Sendable {
    /// Width in pixels (at least 1).
    public let width: Int
    /// Height in pixels (at least 1).
    public let height: Int
    /// Bytes from the start of one row to the start of the next.
    public let bytesPerRow: Int
    /// The layout of each pixel.
    public let format: PixelFormat
    package private(set) var storage: PixelStorage
    /// Set by a coder whose pixels are opaque by construction (JPEG): `isOpaque` answers without scanning. Any
    /// write through `withUnsafeMutableBytes` clears it.
    package var isKnownOpaque = false

    /// Allocates a buffer, zero-filled (transparent black) unless `zeroed` is false.
    ///
    /// Throws `.pixelLimitExceeded` for a non-positive or overflowing size and `.outOfMemory` when allocation fails.
    public init(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int? = nil, zeroed: Bool = true)
        throws(ImageError)
    {
        let rowBytes = try Self.validatedRowBytes(
            width: width, height: height, format: format, bytesPerRow: bytesPerRow)
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = rowBytes
        self.storage = try PixelStorage(count: rowBytes * height, zeroed: zeroed)
    }

    /// A buffer over tightly packed bytes (`width * bytesPerPixel` per row), copied in.
    public init(width: Int, height: Int, format: PixelFormat, bytes: [UInt8]) throws(ImageError) {
        try self.init(width: width, height: height, format: format, zeroed: false)
        guard bytes.count == bytesPerRow * height else {
            throw ImageError(
                .badImageData,
                "expected \(bytesPerRow * height) bytes for \(width)x\(height) \(format), got \(bytes.count)")
        }
        let destination = storage.bytes
        bytes.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }

    /// Wraps memory a C library allocated with `malloc`; the buffer frees it. Used by coders in this package.
    package init(
        adopting pointer: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int, format: PixelFormat
    ) {
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.format = format
        self.storage = PixelStorage(adopting: pointer, count: bytesPerRow * height)
    }

    package static func validatedRowBytes(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int?)
        throws(ImageError) -> Int
    {
        guard width > 0, height > 0 else {
            throw ImageError(.pixelLimitExceeded, "invalid pixel size \(width)x\(height)")
        }
        let (minimum, overflow) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        let rowBytes = bytesPerRow ?? minimum
        guard !overflow, rowBytes >= minimum, !rowBytes.multipliedReportingOverflow(by: height).overflow else {
            throw ImageError(.pixelLimitExceeded, "pixel size \(width)x\(height) overflows memory")
        }
        return rowBytes
    }

    /// The pixel size.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Bytes of pixel memory this buffer holds (its cost in a memory cache).
    public var byteCount: Int { bytesPerRow * height }

    /// Reads the pixel memory (`bytesPerRow * height` bytes).
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: storage.bytes, count: byteCount))
    }

    /// Writes the pixel memory, first copying it if another buffer shares it.
    ///
    /// Throws `.outOfMemory` when that copy cannot be allocated (`body` is then not called), and whatever `body`
    /// throws.
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws(ImageError) -> R)
        throws(ImageError) -> R
    {
        try makeUnique()
        isKnownOpaque = false
        return try body(UnsafeMutableRawBufferPointer(start: storage.bytes, count: byteCount))
    }

    /// Makes the memory private to this buffer (copying it if shared), so that the next write does not copy.
    public mutating func makeUnique() throws(ImageError) {
        if !isKnownUniquelyReferenced(&storage) { storage = try storage.copy() }
    }

    /// The rows without padding, `width * bytesPerPixel` bytes each, concatenated.
    public func packedBytes() -> [UInt8] {
        let rowLength = width * format.bytesPerPixel
        return [UInt8](unsafeUninitializedCapacity: rowLength * height) { output, count in
            withUnsafeBytes { input in
                for y in 0..<height {
                    let source = input.baseAddress! + y * bytesPerRow
                    (output.baseAddress! + y * rowLength).initialize(
                        from: source.assumingMemoryBound(to: UInt8.self), count: rowLength)
                }
            }
            count = rowLength * height
        }
    }

    /// The pixel at (x, y) as straight-alpha 8-bit colour, whatever the buffer's format.
    public func color(x: Int, y: Int) -> RGBAColor {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        return withUnsafeBytes { bytes in
            let offset = y * bytesPerRow + x * format.bytesPerPixel
            var components: (Int, Int, Int, Int)
            var maximum = 255
            if format.bitsPerComponent == 8 {
                components = (
                    Int(bytes[offset]), Int(bytes[offset + 1]), Int(bytes[offset + 2]), Int(bytes[offset + 3])
                )
            } else {
                let words = (bytes.baseAddress! + offset).assumingMemoryBound(to: UInt16.self)
                components = (Int(words[0]), Int(words[1]), Int(words[2]), Int(words[3]))
                maximum = 65535
            }
            if format.isPremultiplied {
                components.0 = PixelMath.unpremultiply(components.0, alpha: components.3, maximum: maximum)
                components.1 = PixelMath.unpremultiply(components.1, alpha: components.3, maximum: maximum)
                components.2 = PixelMath.unpremultiply(components.2, alpha: components.3, maximum: maximum)
            }
            if maximum == 65535 {
                components = (
                    PixelMath.to8(components.0), PixelMath.to8(components.1),
                    PixelMath.to8(components.2), PixelMath.to8(components.3)
                )
            }
            return RGBAColor(
                red: UInt8(components.0), green: UInt8(components.1), blue: UInt8(components.2),
                alpha: UInt8(components.3))
        }
    }
}

extension PixelBuffer: Equatable {
    /// Equal when size, format and every pixel's bytes are equal (row padding is ignored).
    public static func == (lhs: PixelBuffer, rhs: PixelBuffer) -> Bool {
        guard lhs.width == rhs.width, lhs.height == rhs.height, lhs.format == rhs.format else { return false }
        if lhs.storage === rhs.storage && lhs.bytesPerRow == rhs.bytesPerRow { return true }
        let rowLength = lhs.width * lhs.format.bytesPerPixel
        return lhs.withUnsafeBytes { a in
            rhs.withUnsafeBytes { b in
                for y in 0..<lhs.height
                where memcmp(a.baseAddress! + y * lhs.bytesPerRow, b.baseAddress! + y * rhs.bytesPerRow, rowLength) != 0
                {
                    return false
                }
                return true
            }
        }
    }
}

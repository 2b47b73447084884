#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One block of pixel memory, allocated with `malloc` so that a failed allocation is an error, not a trap, and so
/// that a C library's own `malloc`ed output can be adopted without a copy.
// @unchecked Sendable: the bytes are written only while the storage is uniquely referenced (PixelBuffer's
// copy-on-write) or before it is first shared; once shared it is read-only, so concurrent reads are safe.
package final class PixelStorage: @unchecked Sendable {
    package let bytes: UnsafeMutableRawPointer
    package let count: Int

    /// Allocates `count` bytes, zero-filled when `zeroed`.
    package init(count: Int, zeroed: Bool) throws(ImageError) {
        let size = Swift.max(count, 1)
        guard let pointer = zeroed ? calloc(size, 1) : malloc(size) else {
            throw ImageError(.outOfMemory, "cannot allocate \(count) bytes of pixels")
        }
        self.bytes = pointer
        self.count = count
    }

    /// Takes ownership of `pointer`, which must come from `malloc` and hold `count` bytes; freed with `free`.
    package init(adopting pointer: UnsafeMutableRawPointer, count: Int) {
        self.bytes = pointer
        self.count = count
    }

    /// A new storage holding a copy of these bytes.
    package func copy() throws(ImageError) -> PixelStorage {
        let copy = try PixelStorage(count: count, zeroed: false)
        copy.bytes.copyMemory(from: bytes, byteCount: count)
        return copy
    }

    deinit { free(bytes) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Testing
import WICore

/// Under ASan or TSan a refused allocation of this size aborts the process instead of returning NULL.
private let runsUnderSanitizer =
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
    || dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

@Suite struct PixelBufferCopyFailureTests {
    /// A write to a shared buffer whose private copy cannot be allocated throws `.outOfMemory` (it trapped
    /// before) and leaves both buffers as they were.
    @Test(.disabled(if: runsUnderSanitizer, "sanitizer allocators abort on a 2^50-byte request"))
    func failedCopyOnWriteThrowsOutOfMemory() throws {
        // A buffer that claims 2^50 bytes over an 8-byte allocation: nothing reads past the first 8, and the copy
        // a write would make cannot be allocated on any machine.
        let memory = try #require(malloc(8))
        var shared = PixelBuffer(
            adopting: memory, width: 1 << 23, height: 1 << 25, bytesPerRow: 1 << 25, format: .rgba8)
        let other = shared
        var called = false
        let error = #expect(throws: ImageError.self) {
            try shared.withUnsafeMutableBytes { _ in called = true }
        }
        #expect(error?.code == .outOfMemory)
        #expect(!called)
        #expect(shared.withUnsafeBytes { $0.baseAddress } == other.withUnsafeBytes { $0.baseAddress })
    }
}

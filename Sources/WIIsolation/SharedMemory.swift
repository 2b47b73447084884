#if canImport(Glibc)
import Glibc
#endif
private import CSandbox
import WICore

/// A block of memory backed by a memfd: written by one process, mapped by the other after the descriptor is passed
/// over the worker's socket, so that source bytes and decoded pixels cross without going through the socket.
///
/// Thread safety: owned by one thread at a time; unmapped and closed in `deinit`.
final class SharedMemory {
    let fd: Int32
    let bytes: UnsafeMutableRawPointer
    let count: Int

    /// A new block of `count` bytes, mapped for writing.
    init(count: Int, name: String) throws(ImageError) {
        let fd = wi_sandbox_memfd(name)
        guard fd >= 0 else { throw ImageError(.outOfMemory, "memfd_create failed: \(SharedMemory.describe(-fd))") }
        guard ftruncate(fd, off_t(max(count, 1))) == 0 else {
            let error = errno
            close(fd)
            throw ImageError(
                .outOfMemory, "cannot size shared memory to \(count) bytes: \(SharedMemory.describe(error))")
        }
        (self.fd, bytes, self.count) = (fd, try Self.map(owning: fd, count: count), count)
    }

    /// Maps the block `fd` names (received from the other process; this object closes it), checking that it holds
    /// at least `count` bytes.
    init(adopting fd: Int32, count: Int) throws(ImageError) {
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_size >= count, count >= 0 else {
            close(fd)
            throw ImageError(.badImageData, "the worker's shared memory is smaller than its message says")
        }
        (self.fd, bytes, self.count) = (fd, try Self.map(owning: fd, count: count), count)
    }

    deinit {
        munmap(bytes, max(count, 1))
        close(fd)
    }

    /// Maps `fd` (closed when mapping fails).
    private static func map(owning fd: Int32, count: Int) throws(ImageError) -> UnsafeMutableRawPointer {
        guard let pointer = mmap(nil, max(count, 1), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), pointer != MAP_FAILED
        else {
            let error = errno
            close(fd)
            throw ImageError(.outOfMemory, "cannot map \(count) bytes of shared memory: \(describe(error))")
        }
        return pointer
    }

    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}

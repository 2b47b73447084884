import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A 64-bit counter shared by every process that opens the same cache directory: a word of a small file mapped
/// with MAP_SHARED and changed only with atomic instructions. Each process bumps it after it adds an entry, so a
/// process can tell with one memory load (no system call) whether its index may be missing entries.
///
/// Thread safety: `load` and `increment` are atomic across threads and processes.
// @unchecked Sendable: `word` points into a MAP_SHARED mapping that is only accessed through `Atomic` operations
// and unmapped in deinit, when no other reference exists.
final class SharedGeneration: @unchecked Sendable {
    private let word: UnsafeMutablePointer<Atomic<UInt64>>
    private let length = 8

    /// Maps `path` (created when missing); nil when the file cannot be created or mapped (read-only directory).
    init?(path: String) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        if status.st_size < length && ftruncate(fd, off_t(length)) != 0 { return nil }
        guard let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
            address != MAP_FAILED
        else { return nil }
        word = address.bindMemory(to: Atomic<UInt64>.self, capacity: 1)
    }

    deinit { munmap(UnsafeMutableRawPointer(word), length) }

    /// The current value.
    func load() -> UInt64 { word.pointee.load(ordering: .acquiring) }

    /// Adds one; returns the value before.
    func increment() -> UInt64 { word.pointee.add(1, ordering: .acquiringAndReleasing).oldValue }
}

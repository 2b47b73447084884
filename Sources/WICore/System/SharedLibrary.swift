#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A C library opened with `dlopen` the first time its format is met, with the table of its functions that the
/// library's shim bound (`Sources/System/C*Shim`: one field per function, typed from the library's own header).
///
/// The heavy codec libraries (librsvg, poppler-glib, cairo, libheif, libjxl) are opened this way, so a process that
/// never meets their formats never loads them and their dependencies
/// (docs/decisions/0025-codec-libraries-opened-on-first-use.md). A coder keeps one instance in a `static let`, which
/// Swift initialises once, under a lock.
/// A library or function that cannot be found is `ImageError` 1004 (`.unsupportedFormat`): the format cannot be
/// handled in this process, and a coders manager tries its next coder.
///
/// Thread safety: immutable after `init`; safe to share. The C functions keep their own thread-safety contracts.
package final class SharedLibrary<Functions>: @unchecked Sendable {  // immutable after init: a handle and C pointers
    /// The name the library was opened by (its SONAME, e.g. "librsvg-2.so.2").
    package let soname: String
    /// The bound functions.
    package let functions: Functions
    private let handle: UnsafeMutableRawPointer

    /// Opens `soname` (`RTLD_NOW | RTLD_LOCAL`) and fills the table with `bind`, the shim's function that looks
    /// every name up with `dlsym` and returns the first it cannot find (nil when all were found). Throws
    /// `.unsupportedFormat` naming the library, or the missing function, with the loader's message.
    package init(
        soname: String,
        bind: (UnsafeMutableRawPointer, UnsafeMutablePointer<Functions>) -> UnsafePointer<CChar>?
    ) throws(ImageError) {
        _ = dlerror()
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            throw ImageError(.unsupportedFormat, "cannot load \(soname): \(Self.loaderMessage())")
        }
        let table = UnsafeMutablePointer<Functions>.allocate(capacity: 1)
        defer { table.deallocate() }
        if let missing = bind(handle, table) {
            let name = String(cString: missing)
            dlclose(handle)
            throw ImageError(.unsupportedFormat, "\(soname) has no function \(name)")
        }
        self.soname = soname
        self.functions = table.move()
        self.handle = handle
    }

    deinit { dlclose(handle) }

    private static func loaderMessage() -> String {
        guard let message = dlerror() else { return "unknown dynamic loader error" }
        return String(cString: message)
    }
}

/// A coder whose C libraries open on first use (`SharedLibrary`): `openLibraries()` opens them now, with what they
/// load when they start (libheif's plugins). A decode worker calls it before its sandbox forbids opening files;
/// a library that cannot be opened stays unopened (its format is then `.unsupportedFormat`, as in any process).
package protocol LibraryOpeningCoder: ImageCoder {
    /// Opens this coder's libraries now. Thread safety: any thread (the libraries open once, under Swift's lock).
    func openLibraries()
}

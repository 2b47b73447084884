import WICore
internal import CJXLShim

/// libjxl.so.0.7, opened the first time a JPEG XL file is decoded or encoded (WICore's `SharedLibrary`), not when
/// the process starts.
///
/// Thread safety: read-only after the first use, which Swift runs once; safe from any thread.
package enum JXLLibrary {
    /// libjxl's functions, or `.unsupportedFormat` when it cannot be loaded; opened once per process.
    static func functions() throws(ImageError) -> wi_jxl_functions { try shared.get().functions }

    /// Opens the library now, if it is there (a decode worker, before its sandbox).
    static func open() { _ = try? shared.get() }

    /// Opens `soname` as libjxl and binds every function, as the first use does, then lets it go: the test hook for
    /// a library that is missing or lacks a function.
    package static func check(soname: String) throws(ImageError) { _ = try open(soname: soname) }

    private static let shared = Result { () throws(ImageError) in try open(soname: "libjxl.so.0.7") }

    private static func open(soname: String) throws(ImageError) -> SharedLibrary<wi_jxl_functions> {
        try SharedLibrary(soname: soname, bind: wi_jxl_bind)
    }
}

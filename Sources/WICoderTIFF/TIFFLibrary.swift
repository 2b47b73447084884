import WICore
private import CTIFFShim

/// The libtiff this plugin uses, opened (`dlopen`) the first time a TIFF is read or written or the version is
/// asked for, not when the process starts.
///
/// Thread safety: read-only after the first use, which Swift runs once; safe from any thread.
public enum TIFFLibrary {
    /// libtiff's version line ("LIBTIFF, Version 4.5.0" and its copyright lines), or "unavailable" when libtiff
    /// cannot be loaded.
    public static var version: String {
        guard (try? load()) != nil, let text = wi_tiff_version() else { return "unavailable" }
        return String(cString: text)
    }

    /// Loads libtiff once and makes its functions the ones CTIFFShim calls; `.unsupportedFormat` when it cannot be
    /// loaded (then no CTIFFShim function may be called).
    static func load() throws(ImageError) { _ = try shared.get() }

    /// Opens `soname` as libtiff and binds every function the shim calls, as the first use does (without making
    /// them the shim's), then lets it go: the test hook for a library that is missing or lacks a function.
    package static func check(soname: String) throws(ImageError) { _ = try open(soname: soname, install: false) }

    private static let shared = Result { () throws(ImageError) in try open(soname: "libtiff.so.6", install: true) }

    private static func open(soname: String, install: Bool) throws(ImageError) -> SharedLibrary<Void> {
        try SharedLibrary(soname: soname) { handle, _ in wi_tiff_bind(handle, install ? 1 : 0) }
    }
}

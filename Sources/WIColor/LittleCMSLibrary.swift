import WICore
internal import CLCMSShim

/// The Little CMS 2 this plugin uses, opened (`dlopen`) the first time a colour conversion runs or the version is
/// asked for, not when the process starts.
///
/// Thread safety: read-only after the first use, which Swift runs once; safe from any thread.
public enum LittleCMSLibrary {
    /// lcms's version ("2.14"), or "unavailable" when liblcms2 cannot be loaded.
    public static var version: String {
        guard (try? load()) != nil else { return "unavailable" }
        let encoded = Int(wi_lcms_version())
        return "\(encoded / 1000).\(encoded % 1000 / 10)"
    }

    /// Loads liblcms2 once and makes its functions the ones CLCMSShim calls; `.unsupportedFormat` when it cannot
    /// be loaded (then no CLCMSShim function may be called).
    static func load() throws(ImageError) { _ = try shared.get() }

    /// Opens `soname` as liblcms2 and binds every function the shim calls, as the first use does (without making
    /// them the shim's), then lets it go: the test hook for a library that is missing or lacks a function.
    package static func check(soname: String) throws(ImageError) { _ = try open(soname: soname, install: false) }

    private static let shared = Result { () throws(ImageError) in try open(soname: "liblcms2.so.2", install: true) }

    private static func open(soname: String, install: Bool) throws(ImageError) -> SharedLibrary<Void> {
        try SharedLibrary(soname: soname) { handle, _ in wi_lcms_bind(handle, install ? 1 : 0) }
    }
}

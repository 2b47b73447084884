private import CPixman

/// The pixman this plugin is linked against.
///
/// Thread safety: read-only; safe from any thread.
public enum PixmanLibrary {
    /// pixman's run-time version ("0.42.2").
    public static var version: String { String(cString: pixman_version_string()) }
}

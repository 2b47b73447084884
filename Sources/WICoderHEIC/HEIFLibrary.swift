private import CHeif

/// The libheif this plugin is linked against.
///
/// Thread safety: read-only; safe from any thread.
public enum HEIFLibrary {
    /// libheif's run-time version ("1.15.1").
    public static var version: String { String(cString: heif_get_version()) }
}

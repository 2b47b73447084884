private import CTIFFShim

/// The libtiff this plugin is linked against.
///
/// Thread safety: read-only; safe from any thread.
public enum TIFFLibrary {
    /// libtiff's version line ("LIBTIFF, Version 4.5.0" and its copyright lines).
    public static var version: String { String(cString: wi_tiff_version()) }
}

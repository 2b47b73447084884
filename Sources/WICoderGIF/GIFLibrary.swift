private import CGIF

/// The giflib this plugin is built against.
///
/// Thread safety: read-only; safe from any thread.
public enum GIFLibrary {
    /// giflib's version from its header ("5.2.1"); giflib has no run-time version call.
    public static var version: String { "\(cgif_version_major()).\(cgif_version_minor()).\(cgif_version_release())" }

    /// giflib's message for one of its error codes (a smoke check that the library links).
    public static func message(forErrorCode code: Int32) -> String? {
        GifErrorString(code).map { String(cString: $0) }
    }
}

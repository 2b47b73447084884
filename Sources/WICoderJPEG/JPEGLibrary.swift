private import CJPEG

/// The libjpeg-turbo this plugin is built against.
///
/// Thread safety: read-only; safe from any thread.
public enum JPEGLibrary {
    /// libjpeg-turbo's version from its headers ("2.1.5"); the 2.x library has no run-time version call.
    public static var version: String {
        let number = Int(LIBJPEG_TURBO_VERSION_NUMBER)
        return "\(number / 1_000_000).\(number / 1000 % 1000).\(number % 1000)"
    }

    /// The libjpeg API level (62 for Debian's libjpeg62-turbo).
    public static var apiLevel: Int { Int(JPEG_LIB_VERSION) }

    /// Whether the TurboJPEG library links and creates a decompressor (a smoke check of the C wiring).
    public static var isAvailable: Bool {
        guard let handle = tjInitDecompress() else { return false }
        tjDestroy(handle)
        return true
    }
}

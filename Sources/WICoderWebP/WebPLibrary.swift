private import CWebP

/// The libwebp this plugin is linked against.
///
/// Thread safety: read-only; safe from any thread.
public enum WebPLibrary {
    /// The decoder's run-time version ("1.2.4").
    public static var decoderVersion: String { format(WebPGetDecoderVersion()) }
    /// The encoder's run-time version.
    public static var encoderVersion: String { format(WebPGetEncoderVersion()) }
    /// The demux library's run-time version (animated decode).
    public static var demuxVersion: String { format(WebPGetDemuxVersion()) }
    /// The mux library's run-time version (container and metadata).
    public static var muxVersion: String { format(WebPGetMuxVersion()) }

    private static func format(_ packed: Int32) -> String {
        "\(packed >> 16 & 0xFF).\(packed >> 8 & 0xFF).\(packed & 0xFF)"
    }
}

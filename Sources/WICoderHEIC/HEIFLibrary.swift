private import CHeif

/// The libheif this plugin is linked against, and which codecs its build carries.
///
/// Debian 12's libheif 1.15.1 decodes HEVC with libde265 and AV1 with dav1d (or aom), and encodes HEVC with x265
/// and AV1 with aom; `HEIFCoder` offers exactly the formats whose codec is present.
///
/// Thread safety: read-only; safe from any thread.
public enum HEIFLibrary {
    /// libheif's run-time version ("1.15.1").
    public static var version: String { String(cString: heif_get_version()) }

    /// Whether libheif can decode HEVC-coded images (HEIC).
    public static var decodesHEVC: Bool { initialized && heif_have_decoder_for_format(heif_compression_HEVC) != 0 }
    /// Whether libheif can decode AV1-coded images (AVIF).
    public static var decodesAV1: Bool { initialized && heif_have_decoder_for_format(heif_compression_AV1) != 0 }
    /// Whether libheif can encode HEVC (HEIC).
    public static var encodesHEVC: Bool { initialized && heif_have_encoder_for_format(heif_compression_HEVC) != 0 }
    /// Whether libheif can encode AV1 (AVIF).
    public static var encodesAV1: Bool { initialized && heif_have_encoder_for_format(heif_compression_AV1) != 0 }

    /// Runs `heif_init` once per process (it loads the codec plugins); every libheif use reads this first.
    /// libheif reference-counts init/deinit; the process keeps its one reference until it exits.
    static let initialized: Bool = heif_init(nil).code == heif_error_Ok
}

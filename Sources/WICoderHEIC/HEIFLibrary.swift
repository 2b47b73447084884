import WICore
internal import CHeifShim

/// The libheif this plugin uses, and which codecs its build carries.
///
/// Debian 12's libheif 1.15.1 decodes HEVC with libde265 and AV1 with dav1d (or aom), and encodes HEVC with x265
/// and AV1 with aom; `HEIFCoder` offers exactly the formats whose codec is present. libheif is opened (`dlopen`)
/// the first time one of these is read or a HEIF file is decoded or encoded, not when the process starts; when it
/// cannot be loaded, no format is offered and decoding or encoding throws `.unsupportedFormat`.
///
/// Thread safety: read-only; safe from any thread.
public enum HEIFLibrary {
    /// libheif's run-time version ("1.15.1"), or "unavailable" when libheif cannot be loaded.
    public static var version: String {
        guard let heif = try? functions(), let text = heif.heif_get_version() else { return "unavailable" }
        return String(cString: text)
    }

    /// Whether libheif can decode HEVC-coded images (HEIC).
    public static var decodesHEVC: Bool { has { $0.heif_have_decoder_for_format(heif_compression_HEVC) } }
    /// Whether libheif can decode AV1-coded images (AVIF).
    public static var decodesAV1: Bool { has { $0.heif_have_decoder_for_format(heif_compression_AV1) } }
    /// Whether libheif can encode HEVC (HEIC).
    public static var encodesHEVC: Bool { has { $0.heif_have_encoder_for_format(heif_compression_HEVC) } }
    /// Whether libheif can encode AV1 (AVIF).
    public static var encodesAV1: Bool { has { $0.heif_have_encoder_for_format(heif_compression_AV1) } }

    /// libheif's functions, after `heif_init` (which loads the codec plugins) ran once in this process; libheif
    /// reference-counts init/deinit and the process keeps its one reference until it exits.
    static func functions() throws(ImageError) -> wi_heif_functions { try shared.get().functions }

    /// Opens the library and runs `heif_init` now, if the library is there (a decode worker, before its sandbox).
    static func open() { _ = try? shared.get() }

    /// Opens `soname` as libheif and binds every function, as the first use does (without `heif_init`), then lets
    /// it go: the test hook for a library that is missing or lacks a function.
    package static func check(soname: String) throws(ImageError) { _ = try open(soname: soname) }

    private static let shared = Result { () throws(ImageError) -> SharedLibrary<wi_heif_functions> in
        let library = try open(soname: "libheif.so.1")
        let status = library.functions.heif_init(nil)
        guard status.code == heif_error_Ok else {
            let message = status.message.map { String(cString: $0) } ?? "error \(status.code.rawValue)"
            throw ImageError(.unsupportedFormat, "libheif failed to initialize: \(message)")
        }
        return library
    }

    private static func open(soname: String) throws(ImageError) -> SharedLibrary<wi_heif_functions> {
        try SharedLibrary(soname: soname, bind: wi_heif_bind)
    }

    private static func has(_ question: (wi_heif_functions) -> Int32) -> Bool {
        guard let heif = try? functions() else { return false }
        return question(heif) != 0
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// HEIC, HEIF and AVIF decoding and encoding on libheif.
///
/// Decodes the primary image of a file (grids assembled; depth and other auxiliary images ignored) to RGBA8, or
/// RGBA16 with `keep16Bit` when the file has 10 or 12 bits. libheif applies the container's transformations (irot,
/// imir, clap), which are authoritative in HEIF: the EXIF orientation tag is kept in the metadata but never applied
/// on top, and images come back `.up` whatever `applyOrientation` says. A thumbnail request uses an embedded
/// thumbnail when one is at least the requested size. ICC, EXIF and XMP are kept as metadata.
///
/// Encodes HEIC with x265 and AVIF with aom (8 bits, alpha when the image has any, optional lossless and an
/// embedded thumbnail). Fast encoder settings by default: x265 preset "fast" (files as small as "slow" at about
/// half the time; "ultrafast" makes them about 40% larger) and aom speed 8 (of 0-9; about as small as the default
/// 6 at half the time). Tune them with `hevcPreset` and `av1Speed`.
///
/// ```swift
/// let coders = ImageCodersManager(coders: [PNGCoder(), HEIFCoder()])
/// let avif = try coders.encode(image, as: .avif, options: EncodeOptions(quality: 0.7))
/// ```
///
/// HEIF image sequences (msf1/avis animations) are not supported by libheif 1.15: such files give their still
/// primary image when they carry one, else `.badImageData`. `.heif` encodes as HEVC, so the file's brand is heic.
///
/// Thread safety: an immutable value; decode and encode from any number of threads at once (each call has its own
/// libheif context).
public struct HEIFCoder: ImageCoder {
    /// x265's preset for HEIC encodes, "ultrafast" to "placebo".
    public var hevcPreset: String
    /// aom's speed for AVIF encodes, 0 (slowest, smallest) to 9.
    public var av1Speed: Int
    /// The box an embedded thumbnail fits in (`EncodeOptions.embedThumbnail`), in pixels.
    public var thumbnailBoxSize: Int

    /// A coder with the given encoder settings (decoding has none); `av1Speed` is clamped to 0-9.
    public init(hevcPreset: String = "fast", av1Speed: Int = 8, thumbnailBoxSize: Int = 256) {
        self.hevcPreset = hevcPreset
        self.av1Speed = min(9, max(0, av1Speed))
        self.thumbnailBoxSize = max(1, thumbnailBoxSize)
    }

    /// The formats this libheif build decodes: HEIC and HEIF with an HEVC decoder, AVIF with an AV1 decoder.
    public var decodingFormats: [ImageFormat] {
        (HEIFLibrary.decodesHEVC ? [.heic, .heif] : []) + (HEIFLibrary.decodesAV1 ? [.avif] : [])
    }

    /// Whether the ftyp box names a HEIF brand (heic, heix, hevc, hevx, mif1, msf1, avif, avis, major or
    /// compatible) whose codec this build has.
    public func canDecode(_ data: Data) -> Bool {
        let format = ImageFormat.detect(data)  // sniffed first: other formats never load libheif
        return [.heic, .heif, .avif].contains(format) && decodingFormats.contains(format)
    }

    public func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        let format = ImageFormat.detect(data)
        guard [.heic, .heif, .avif].contains(format) else {
            throw ImageError(.unsupportedFormat, "HEIFCoder decodes HEIC, HEIF and AVIF, not \(format)")
        }
        return try HEIFDecoding(options: options, format: format).decode(data)
    }

    public func canEncode(to format: ImageFormat) -> Bool {
        switch format {
        case .heic, .heif: HEIFLibrary.encodesHEVC
        case .avif: HEIFLibrary.encodesAV1
        default: false
        }
    }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        guard canEncode(to: format) else {
            throw ImageError(.unsupportedFormat, "HEIFCoder (libheif \(HEIFLibrary.version)) cannot encode \(format)")
        }
        return try HEIFEncoding(coder: self, format: format, options: options).encode(image)
    }
}

extension HEIFCoder: LibraryOpeningCoder {
    package func openLibraries() {
        HEIFLibrary.open()
    }
}

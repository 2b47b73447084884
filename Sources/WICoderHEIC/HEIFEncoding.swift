#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
import WICoderSupport
internal import CHeifShim

/// One encode of an image to HEIC (x265) or AVIF (aom): 8-bit RGB(A), quality or lossless, an optional embedded
/// thumbnail, ICC/EXIF/XMP carried over, and a quality search for a maximum file size.
///
/// Pixels are turned upright before encoding and the EXIF orientation is rewritten to 1, rather than recorded as
/// irot/imir: libheif 1.15 writes the rotated size into ispe for 90-degree rotations, which newer libheif rejects.
///
/// Not thread-safe: one value per encode call.
struct HEIFEncoding {
    let coder: HEIFCoder
    let format: ImageFormat
    let options: EncodeOptions
    private let heif: wi_heif_functions

    /// Throws `.unsupportedFormat` when libheif cannot be loaded.
    init(coder: HEIFCoder, format: ImageFormat, options: EncodeOptions) throws(ImageError) {
        self.coder = coder
        self.format = format
        self.options = options
        self.heif = try HEIFLibrary.functions()
    }

    private var compression: heif_compression_format { format == .avif ? heif_compression_AV1 : heif_compression_HEVC }

    func encode(_ image: Image) throws(ImageError) -> Data {
        var pixels = try image.pixels.applying(image.orientation)
        if let box = options.maxPixelSize {
            let target = ImageCoding.Geometry.scaledSize(of: pixels.size, toFit: box)
            if target != pixels.size { pixels = try options.effectiveResampler.resample(pixels, to: target) }
        }
        pixels = try pixels.converted(to: .rgba8)
        let source = try makeSource(pixels, icc: image.metadata.iccProfile)
        let thumbnail = try makeThumbnail(pixels, icc: image.metadata.iccProfile)
        var metadata = image.metadata
        metadata.exif = metadata.exif.map { ImageCoding.ExifReader.replacingOrientation(in: $0, with: .up) }
        metadata.xmp = metadata.xmp.map { ImageCoding.XMPReader.replacingOrientation(in: $0, with: .up) }

        let quality = Int((min(1, max(0, options.quality)) * 100).rounded())
        let first = try write(source, thumbnail: thumbnail, quality: quality, metadata: metadata)
        guard let limit = options.maxFileSize, !options.lossless, first.count > limit else { return first }
        // Binary search over the integer qualities below: the best one that fits, else the smallest quality's.
        var best = try write(source, thumbnail: thumbnail, quality: 0, metadata: metadata)
        guard best.count <= limit else { return best }
        var (fits, tooBig) = (0, quality)
        while tooBig - fits > 1 {
            let middle = (fits + tooBig) / 2
            let data = try write(source, thumbnail: thumbnail, quality: middle, metadata: metadata)
            if data.count <= limit { (fits, best) = (middle, data) } else { tooBig = middle }
        }
        return best
    }

    /// With `embedThumbnail`, the pixels reduced to fit the coder's thumbnail box; nil when they already fit.
    private func makeThumbnail(_ pixels: PixelBuffer, icc: Data?) throws(ImageError) -> HEIFPixelImage? {
        guard options.embedThumbnail else { return nil }
        let box = PixelSize(width: coder.thumbnailBoxSize, height: coder.thumbnailBoxSize)
        let size = ImageCoding.Geometry.scaledSize(of: pixels.size, toFit: box)
        guard size != pixels.size else { return nil }
        return try makeSource(try options.effectiveResampler.resample(pixels, to: size), icc: icc)
    }

    /// A libheif image holding `pixels` (RGB when every pixel is opaque, else RGBA), with its colour profile.
    private func makeSource(_ pixels: PixelBuffer, icc: Data?) throws(ImageError) -> HEIFPixelImage {
        let alpha = !pixels.isOpaque
        var pointer: OpaquePointer?
        try HEIFStatus.check(
            heif.heif_image_create(
                Int32(pixels.width), Int32(pixels.height), heif_colorspace_RGB,
                alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB,
                &pointer), "create image", failure: .encodingFailed)
        guard let pointer else { throw ImageError(.outOfMemory, "libheif created no image") }
        let image = HEIFPixelImage(pointer, heif)
        try HEIFStatus.check(
            heif.heif_image_add_plane(
                image.pointer, heif_channel_interleaved, Int32(pixels.width),
                Int32(pixels.height), 8), "add plane", failure: .encodingFailed)
        var stride: Int32 = 0
        guard let plane = heif.heif_image_get_plane(image.pointer, heif_channel_interleaved, &stride) else {
            throw ImageError(.outOfMemory, "libheif gave no plane to fill")
        }
        pixels.withUnsafeBytes { input in
            for y in 0..<pixels.height {
                let from = input.baseAddress! + y * pixels.bytesPerRow
                let to = UnsafeMutableRawPointer(plane) + y * Int(stride)
                if alpha {
                    to.copyMemory(from: from, byteCount: pixels.width * 4)
                } else {
                    let rgba = from.assumingMemoryBound(to: UInt8.self)
                    let rgb = to.assumingMemoryBound(to: UInt8.self)
                    for x in 0..<pixels.width {
                        rgb[x * 3] = rgba[x * 4]
                        rgb[x * 3 + 1] = rgba[x * 4 + 1]
                        rgb[x * 3 + 2] = rgba[x * 4 + 2]
                    }
                }
            }
        }
        if let icc, !icc.isEmpty {
            let error = icc.withUnsafeBytes {
                heif.heif_image_set_raw_color_profile(image.pointer, "prof", $0.baseAddress, $0.count)
            }
            try HEIFStatus.check(error, "set ICC profile", failure: .encodingFailed)
        }
        if options.lossless {
            // Lossless needs the RGB planes coded as they are (identity matrix, full range, 4:4:4).
            guard let nclx = heif.heif_nclx_color_profile_alloc() else {
                throw ImageError(.outOfMemory, "nclx profile")
            }
            defer { heif.heif_nclx_color_profile_free(nclx) }
            nclx.pointee.matrix_coefficients = heif_matrix_coefficients_RGB_GBR
            nclx.pointee.full_range_flag = 1
            try HEIFStatus.check(
                heif.heif_image_set_nclx_color_profile(image.pointer, nclx), "set nclx profile",
                failure: .encodingFailed)
        }
        return image
    }

    /// One complete file at `quality` (0-100).
    private func write(_ source: HEIFPixelImage, thumbnail: HEIFPixelImage?, quality: Int, metadata: ImageMetadata)
        throws(ImageError) -> Data
    {
        let context = try HEIFContext(heif)
        let encoder = try makeEncoder(context, quality: quality)
        guard let encodingOptions = heif.heif_encoding_options_alloc() else {
            throw ImageError(.outOfMemory, "cannot allocate heif_encoding_options")
        }
        defer { heif.heif_encoding_options_free(encodingOptions) }
        var handlePointer: OpaquePointer?
        try HEIFStatus.check(
            heif.heif_context_encode_image(
                context.pointer, source.pointer, encoder.pointer, encodingOptions,
                &handlePointer), "encode", failure: .encodingFailed)
        guard let handlePointer else { throw ImageError(.encodingFailed, "libheif encoded no image") }
        let handle = HEIFImageHandle(handlePointer, heif)
        if let thumbnail {
            // Encoded from our own area-averaged reduction (heif_context_encode_thumbnail scales by nearest
            // neighbour, and fails instead of skipping when the image already fits), then linked to the primary.
            // heif_context_assign_thumbnail forwards its two handles to libheif's internal
            // assign_thumbnail(master, thumbnail) swapped (1.15 and every later version checked), so the documented
            // order (master, thumbnail) would make the primary the thumbnail's thumbnail: pass them the other way.
            var thumbnailHandle: OpaquePointer?
            try HEIFStatus.check(
                heif.heif_context_encode_image(
                    context.pointer, thumbnail.pointer, encoder.pointer,
                    encodingOptions, &thumbnailHandle),
                "encode thumbnail", failure: .encodingFailed)
            guard let thumbnailHandle else { throw ImageError(.encodingFailed, "libheif encoded no thumbnail") }
            let owned = HEIFImageHandle(thumbnailHandle, heif)
            try HEIFStatus.check(
                heif.heif_context_assign_thumbnail(context.pointer, owned.pointer, handle.pointer),
                "assign thumbnail", failure: .encodingFailed)
        }
        // libheif refuses EXIF without a TIFF header and XMP it cannot store; such blocks are left out.
        if let exif = metadata.exif {
            _ = exif.withUnsafeBytes {
                heif.heif_context_add_exif_metadata(context.pointer, handle.pointer, $0.baseAddress, Int32($0.count))
            }
        }
        if let xmp = metadata.xmp {
            _ = xmp.withUnsafeBytes {
                heif.heif_context_add_XMP_metadata(context.pointer, handle.pointer, $0.baseAddress, Int32($0.count))
            }
        }
        return try HEIFWriter.write(context)
    }

    private func makeEncoder(_ context: HEIFContext, quality: Int) throws(ImageError) -> HEIFEncoderHandle {
        var pointer: OpaquePointer?
        try HEIFStatus.check(
            heif.heif_context_get_encoder_for_format(context.pointer, compression, &pointer),
            "find an encoder", failure: .encodingFailed)
        guard let pointer else { throw ImageError(.encodingFailed, "libheif has no \(format) encoder") }
        let encoder = HEIFEncoderHandle(pointer, heif)
        let settings: [heif_error] = [
            heif.heif_encoder_set_lossy_quality(encoder.pointer, Int32(quality)),
            heif.heif_encoder_set_lossless(encoder.pointer, options.lossless ? 1 : 0),
            format == .avif
                ? heif.heif_encoder_set_parameter_integer(
                    encoder.pointer, "speed",
                    Int32(min(9, max(0, coder.av1Speed))))
                : heif.heif_encoder_set_parameter_string(encoder.pointer, "preset", coder.hevcPreset),
            options.lossless
                ? heif.heif_encoder_set_parameter_string(encoder.pointer, "chroma", "444")
                : heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil),
        ]
        for error in settings { try HEIFStatus.check(error, "configure the encoder", failure: .encodingFailed) }
        return encoder
    }
}

/// Collects the bytes `heif_context_write` produces.
enum HEIFWriter {
    /// Where the write callback appends; passed to libheif as an unretained pointer for the call's duration.
    private final class Sink {
        var data = Data()
    }

    static func write(_ context: HEIFContext) throws(ImageError) -> Data {
        let heif = context.heif
        let sink = Sink()
        var writer = heif_writer(writer_api_version: 1) { _, bytes, count, userData in
            let sink = Unmanaged<Sink>.fromOpaque(userData!).takeUnretainedValue()
            if let bytes { sink.data.append(bytes.assumingMemoryBound(to: UInt8.self), count: count) }
            return heif_error(
                code: heif_error_Ok, subcode: heif_suberror_Unspecified,
                message: UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self))
        }
        let error = withExtendedLifetime(sink) {
            heif.heif_context_write(context.pointer, &writer, Unmanaged.passUnretained(sink).toOpaque())
        }
        try HEIFStatus.check(error, "write", failure: .encodingFailed)
        return sink.data
    }
}

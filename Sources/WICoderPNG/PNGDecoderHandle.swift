#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
import WICoderSupport
internal import CPNGShim

/// Owns one libpng progressive decoder (through CPNGShim) and turns its state into images.
///
/// Not thread-safe: owned by one decode or one incremental decoder at a time.
final class PNGDecoderHandle {
    private let decoder: OpaquePointer
    let options: DecodeOptions

    init(options: DecodeOptions) throws(ImageError) {
        guard let decoder = wi_png_decoder_create(options.keep16Bit ? 1 : 0, UInt64(max(0, options.pixelLimit))) else {
            throw ImageError(.outOfMemory, "cannot create a libpng decoder")
        }
        self.decoder = decoder
        self.options = options
        // The decoder asks between rows whether the pool job decoding this was cancelled.
        wi_png_decoder_set_stop(decoder) { WorkerPool.isCancelled ? 1 : 0 }
    }

    deinit { wi_png_decoder_destroy(decoder) }

    /// Feeds bytes; a libpng failure becomes a typed error (and is final).
    func feed(_ data: Data) throws(ImageError) {
        let status = data.withUnsafeBytes { bytes in
            wi_png_decoder_feed(decoder, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
        }
        try Self.check(status, message: String(cString: wi_png_decoder_message(decoder)))
    }

    /// Decodes a whole file held in memory: libpng reads the chunks before the image data and, for the common
    /// layouts, the image data is inflated with libdeflate and unfiltered in one pass (CPNGShim's whole-buffer
    /// path); anything else goes on through libpng. `wholeBuffer: false` keeps to libpng (the tests compare both).
    func decode(_ data: Data, wholeBuffer: Bool = true) throws(ImageError) {
        let status = data.withUnsafeBytes { bytes in
            wi_png_decoder_decode(
                decoder, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, wholeBuffer ? 1 : 0)
        }
        try Self.check(status, message: String(cString: wi_png_decoder_message(decoder)))
    }

    /// Whether `decode` finished the image data itself (not libpng's rows).
    var inflatedWhole: Bool { wi_png_decoder_inflated_whole(decoder) != 0 }

    var hasHeader: Bool { wi_png_decoder_has_header(decoder) != 0 }
    var isComplete: Bool { wi_png_decoder_is_complete(decoder) != 0 }
    var rowsDelivered: UInt64 { wi_png_decoder_rows_delivered(decoder) }

    /// The complete image; the pixel memory moves from libpng's side to the image without a copy.
    func finalImage() throws(ImageError) -> Image {
        guard isComplete else {
            throw ImageError(
                .badImageData,
                hasHeader
                    ? "truncated PNG: the data ends before the image is complete"
                    : "truncated PNG: the data ends before the image header")
        }
        let header = wi_png_decoder_header(decoder)!.pointee
        guard let pixels = wi_png_decoder_take_pixels(decoder) else {
            throw ImageError(.badImageData, "the PNG decoder holds no pixels")
        }
        let buffer = PixelBuffer(
            adopting: UnsafeMutableRawPointer(pixels), width: Int(header.width),
            height: Int(header.height), bytesPerRow: header.stride,
            format: header.output_16 != 0 ? .rgba16 : .rgba8)
        return try makeImage(buffer, flags: [])
    }

    /// A copy of the pixels decoded so far, at the final size and flagged incremental; nil before the header.
    func partialImage() -> Image? {
        guard hasHeader, let source = wi_png_decoder_pixels(decoder) else { return nil }
        let header = wi_png_decoder_header(decoder)!.pointee
        do {
            var buffer = try PixelBuffer(
                width: Int(header.width), height: Int(header.height),
                format: header.output_16 != 0 ? .rgba16 : .rgba8,
                bytesPerRow: header.stride, zeroed: false)
            try buffer.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: source, byteCount: $0.count) }
            return try makeImage(buffer, flags: .incremental)
        } catch {
            return nil
        }
    }

    /// The iCCP profile and eXIf block read so far.
    var metadata: ImageMetadata {
        var metadata = ImageMetadata()
        var size = 0
        if let icc = wi_png_decoder_icc(decoder, &size) { metadata.iccProfile = Data(bytes: icc, count: size) }
        if let exif = wi_png_decoder_exif(decoder, &size) { metadata.exif = Data(bytes: exif, count: size) }
        metadata.colorDescription = Self.colorDescription(wi_png_decoder_color(decoder))
        return metadata
    }

    /// The colour chunks as one description, by PNG's precedence: cICP, then sRGB, then gAMA and cHRM.
    private static func colorDescription(_ color: wi_png_color) -> ImageMetadata.ColorDescription? {
        if color.has_cicp != 0 {
            let (primaries, transfer, matrix, range) = color.cicp
            return .cicp(
                .init(primaries: Int(primaries), transfer: Int(transfer), matrix: Int(matrix), fullRange: range != 0))
        }
        if color.has_srgb != 0 { return .sRGB }
        guard color.has_gama != 0 || color.has_chrm != 0 else { return nil }
        let chromaticities =
            color.has_chrm != 0
            ? ImageMetadata.Chromaticities(
                whiteX: color.white_x, whiteY: color.white_y, redX: color.red_x, redY: color.red_y,
                greenX: color.green_x, greenY: color.green_y, blueX: color.blue_x, blueY: color.blue_y) : nil
        return .calibrated(fileGamma: color.has_gama != 0 ? color.gamma : nil, chromaticities: chromaticities)
    }

    private func makeImage(_ buffer: PixelBuffer, flags: Image.Flags) throws(ImageError) -> Image {
        let metadata = self.metadata
        let orientation = metadata.exif.flatMap(ImageCoding.ExifReader.orientation(in:)) ?? .up
        let finished = try options.finish(buffer, orientation: orientation)
        return Image(
            pixels: finished.pixels, format: .png, scale: options.scaleFactor,
            orientation: finished.orientation, flags: flags.union(finished.isThumbnail ? .thumbnail : []),
            decodeOptions: options, metadata: metadata)
    }

    /// The one place CPNGShim statuses become errors.
    static func check(_ status: wi_png_status, message: String) throws(ImageError) {
        switch status {
        case WI_PNG_OK: return
        case WI_PNG_TOO_LARGE: throw ImageError(.pixelLimitExceeded, "PNG: \(message)")
        case WI_PNG_OUT_OF_MEMORY: throw ImageError(.outOfMemory, "PNG: \(message)")
        case WI_PNG_CANCELLED: throw ImageError(.cancelled, "PNG: \(message)")
        default: throw ImageError(.badImageData, "PNG: \(message.isEmpty ? "invalid data" : message)")
        }
    }
}

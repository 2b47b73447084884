#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
import WICoderSupport
internal import CJPEGShim

/// Owns one libjpeg decoder (through CJPEGShim) and turns its state into images.
///
/// After the header it checks the pixel limit and picks the DCT scale for the requested size before libjpeg
/// allocates anything image-sized. Not thread-safe: owned by one decode or one incremental decoder at a time.
final class JPEGDecoderHandle {
    private let decoder: OpaquePointer
    let options: DecodeOptions
    private var orientation = ImageOrientation.up
    private var metadata = ImageMetadata()
    private var storedSize = PixelSize(width: 0, height: 0)
    /// The size libjpeg decodes to (DCT-scaled), once started.
    private(set) var decodedSize: PixelSize?

    /// The CMYK profile the kept CMYK samples convert with (then no longer in `metadata`); nil when the rows hold
    /// RGBA.
    private var cmykProfile: Data?

    init(options: DecodeOptions) throws(ImageError) {
        guard let decoder = wi_jpeg_decoder_create() else {
            throw ImageError(.outOfMemory, "cannot create a libjpeg decoder")
        }
        self.decoder = decoder
        self.options = options
        // libjpeg asks between rows whether the pool job decoding this was cancelled.
        wi_jpeg_decoder_set_stop(decoder) { WorkerPool.isCancelled ? 1 : 0 }
    }

    deinit { wi_jpeg_decoder_destroy(decoder) }

    var isStarted: Bool { wi_jpeg_decoder_is_started(decoder) != 0 }
    var isComplete: Bool { wi_jpeg_decoder_is_complete(decoder) != 0 }
    /// Grows whenever more of the image can be shown (rows, or completed scans).
    var progress: UInt64 { wi_jpeg_decoder_progress(decoder) }

    /// Feeds bytes; a libjpeg failure becomes a typed error (and is final).
    func feed(_ data: Data) throws(ImageError) {
        let status = data.withUnsafeBytes { bytes in
            wi_jpeg_decoder_feed(decoder, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
        }
        try check(status)
        try startIfReady()
    }

    /// A one-shot decode of all of `data`: libjpeg reads its bytes in place (no copy) during this call only, through
    /// the header, the scale choice and the whole image. Afterwards `finalImage()` holds the result.
    func decodeAll(_ data: Data) throws(ImageError) {
        let result = data.withUnsafeBytes { bytes -> Result<Void, ImageError> in
            defer { wi_jpeg_decoder_release_data(decoder) }
            do throws(ImageError) {
                let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                try check(wi_jpeg_decoder_read_in_place(decoder, base, bytes.count))
                try startIfReady()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// No more bytes: a truncated file is padded by libjpeg and completes (flagged), or fails.
    func endOfData() throws(ImageError) {
        try check(wi_jpeg_decoder_end_of_data(decoder))
        try startIfReady()
    }

    /// Once the header is read: metadata, orientation, the pixel limit, then the DCT scale for the target size.
    private func startIfReady() throws(ImageError) {
        guard wi_jpeg_decoder_has_header(decoder) != 0, !isStarted else { return }
        let info = wi_jpeg_decoder_info(decoder)!.pointee
        storedSize = PixelSize(width: Int(info.width), height: Int(info.height))
        metadata = readMetadata()
        // EXIF's orientation, else the XMP packet's tiff:Orientation (as Pillow's getexif() falls back to it).
        orientation =
            metadata.exif.flatMap(ImageCoding.ExifReader.orientation(in:))
            ?? metadata.xmp.flatMap(ImageCoding.XMPReader.orientation(in:)) ?? .up
        try options.checkPixelLimit(storedSize)
        let color = wi_jpeg_decoder_info(decoder)!.pointee.color
        if color == WI_JPEG_COLOR_CMYK || color == WI_JPEG_COLOR_YCCK, options.targetColorSpace == .sRGB,
            options.colorConverter != nil, let profile = metadata.iccProfile
        {
            wi_jpeg_decoder_keep_cmyk(decoder, 1)
            cmykProfile = profile
            metadata.iccProfile = nil
        }
        let swaps = orientation.swapsDimensions
        let displayed = swaps ? PixelSize(width: storedSize.height, height: storedSize.width) : storedSize
        let target = options.targetSize(for: displayed).map {
            swaps ? PixelSize(width: $0.height, height: $0.width) : $0
        }
        try check(wi_jpeg_decoder_start(decoder, Int32(JPEGScale.numerator(for: storedSize, target: target))))
        let started = wi_jpeg_decoder_info(decoder)!.pointee
        decodedSize = PixelSize(width: Int(started.output_width), height: Int(started.output_height))
    }

    private func readMetadata() -> ImageMetadata {
        var metadata = ImageMetadata()
        var size = 0
        if let exif = wi_jpeg_decoder_exif(decoder, &size) { metadata.exif = Data(bytes: exif, count: size) }
        if let xmp = wi_jpeg_decoder_xmp(decoder, &size) { metadata.xmp = Data(bytes: xmp, count: size) }
        if let icc = wi_jpeg_decoder_icc(decoder, &size) { metadata.iccProfile = Data(bytes: icc, count: size) }
        return metadata
    }

    /// The complete image; the pixel memory moves from libjpeg's side to the image without a copy.
    func finalImage() throws(ImageError) -> Image {
        guard isComplete, let decodedSize else {
            throw ImageError(.badImageData, "truncated JPEG: the data ends before the image is complete")
        }
        guard let pixels = wi_jpeg_decoder_take_pixels(decoder) else {
            throw ImageError(.badImageData, "the JPEG decoder holds no pixels")
        }
        var buffer = PixelBuffer(
            adopting: UnsafeMutableRawPointer(pixels), width: decodedSize.width,
            height: decodedSize.height, bytesPerRow: decodedSize.width * 4, format: .rgba8)
        let incomplete = wi_jpeg_decoder_is_truncated(decoder) != 0
        if cmykProfile != nil { buffer = try convertingCMYK(buffer) }
        return try makeImage(buffer, flags: incomplete ? .incomplete : [])
    }

    /// A copy of the image as decoded so far, at the final size and flagged incremental; nil before the start.
    func partialImage() -> Image? {
        guard wi_jpeg_decoder_render(decoder) == WI_JPEG_OK, let decodedSize,
            let source = wi_jpeg_decoder_pixels(decoder)
        else { return nil }
        do {
            var buffer = try PixelBuffer(
                width: decodedSize.width, height: decodedSize.height, format: .rgba8,
                zeroed: false)
            try buffer.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: source, byteCount: $0.count) }
            if cmykProfile != nil { buffer = try convertingCMYK(buffer) }
            return try makeImage(buffer, flags: .incremental)
        } catch {
            return nil
        }
    }

    /// Kept CMYK samples in sRGB through the options' colour converter with the file's profile, or with the naive
    /// formula when the converter cannot use the profile.
    private func convertingCMYK(_ samples: PixelBuffer) throws(ImageError) -> PixelBuffer {
        let inverted = wi_jpeg_decoder_info(decoder)!.pointee.saw_adobe != 0
        if let converter = options.colorConverter, let profile = cmykProfile,
            let converted = try converter.convertCMYKToSRGB(samples, inverted: inverted, profile: profile)
        {
            return converted
        }
        var naive = samples
        let (stride, width, height) = (samples.bytesPerRow, UInt32(samples.width), UInt32(samples.height))
        try naive.withUnsafeMutableBytes { bytes in
            wi_jpeg_cmyk_rows_to_rgba(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), stride, width, height)
        }
        return naive
    }

    private func makeImage(_ buffer: PixelBuffer, flags: Image.Flags) throws(ImageError) -> Image {
        // A JPEG has no alpha: neither a thumbnail's resampling (1.3% of a service JPEG request) nor `hasAlpha` (3%
        // of `wi info` over JPEGs) need scan its pixels.
        var opaque = buffer
        opaque.isKnownOpaque = true
        let finished = try options.finish(opaque, orientation: orientation, fullSize: storedSize)
        var pixels = finished.pixels
        pixels.isKnownOpaque = true
        return Image(
            pixels: pixels, format: .jpeg, scale: options.scaleFactor,
            orientation: finished.orientation, flags: flags.union(finished.isThumbnail ? .thumbnail : []),
            decodeOptions: options, metadata: metadata)
    }

    /// The one place CJPEGShim decoder statuses become errors.
    private func check(_ status: wi_jpeg_status) throws(ImageError) {
        let message = String(cString: wi_jpeg_decoder_message(decoder))
        switch status {
        case WI_JPEG_OK: return
        case WI_JPEG_OUT_OF_MEMORY: throw ImageError(.outOfMemory, "JPEG: \(message)")
        case WI_JPEG_CANCELLED: throw ImageError(.cancelled, "JPEG: \(message)")
        default:
            var text = message.isEmpty ? "invalid data" : message
            if text.hasPrefix("Unsupported JPEG data precision") {
                text += " (libjpeg-turbo \(JPEGLibrary.version) decodes 8-bit JPEG only)"
            } else if text.hasPrefix("Unsupported JPEG process") {
                text += " (libjpeg-turbo \(JPEGLibrary.version) has no lossless or hierarchical JPEG)"
            }
            throw ImageError(.badImageData, "JPEG: \(text)")
        }
    }
}

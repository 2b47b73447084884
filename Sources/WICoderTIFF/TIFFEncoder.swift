#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
internal import CTIFFShim

/// Writes images as TIFF through CTIFFShim's memory writer: one page per frame, 8-bit RGB(A).
enum TIFFEncoder {
    static func encode(_ image: Image, options: EncodeOptions, compression: TIFFCoder.Compression) throws(ImageError)
        -> Data
    {
        let frames = options.firstFrameOnly ? [try image.frame(at: 0)] : try image.frames
        let writer = try TIFFWriter()
        for (index, frame) in frames.enumerated() {
            var pixels = frame.pixels
            if let box = options.maxPixelSize {
                let target = ImageCoding.Geometry.scaledSize(of: pixels.size, toFit: box)
                if target != pixels.size { pixels = try options.effectiveResampler.resample(pixels, to: target) }
            }
            pixels = try pixels.converted(to: .rgba8)
            try writer.addPage(
                pixels, withAlpha: !pixels.isOpaque, compression: compression,
                orientation: image.orientation, page: index, of: frames.count)
        }
        return try writer.finish()
    }
}

/// Owns one libtiff write handle over a growing memory block.
///
/// Not thread-safe: owned by one encode.
final class TIFFWriter {
    private let writer: OpaquePointer

    /// Throws `.unsupportedFormat` when libtiff cannot be loaded.
    init() throws(ImageError) {
        try TIFFLibrary.load()
        guard let writer = wi_tiff_writer_create() else {
            throw ImageError(.outOfMemory, "cannot create a libtiff writer")
        }
        self.writer = writer
    }

    deinit { wi_tiff_writer_destroy(writer) }

    func addPage(
        _ pixels: PixelBuffer, withAlpha: Bool, compression: TIFFCoder.Compression,
        orientation: ImageOrientation, page: Int, of pages: Int
    ) throws(ImageError) {
        let method = compression == .lzw ? WI_TIFF_COMPRESSION_LZW : WI_TIFF_COMPRESSION_DEFLATE
        let status = pixels.withUnsafeBytes { bytes in
            wi_tiff_writer_add_page(
                writer, bytes.bindMemory(to: UInt8.self).baseAddress, UInt32(pixels.width),
                UInt32(pixels.height), pixels.bytesPerRow, withAlpha ? 1 : 0, method,
                UInt16(orientation.rawValue), UInt16(clamping: page), UInt16(clamping: pages))
        }
        try check(status)
    }

    /// The file's bytes (copied out of the writer's block).
    func finish() throws(ImageError) -> Data {
        var bytes: UnsafePointer<UInt8>?
        var size = 0
        try check(wi_tiff_writer_finish(writer, &bytes, &size))
        guard let bytes else { throw ImageError(.encodingFailed, "TIFF encode: no output") }
        return Data(bytes: bytes, count: size)
    }

    private func check(_ status: wi_tiff_status) throws(ImageError) {
        guard status != WI_TIFF_OK else { return }
        let message = String(cString: wi_tiff_writer_message(writer))
        throw ImageError(
            status == WI_TIFF_OUT_OF_MEMORY ? .outOfMemory : .encodingFailed,
            "TIFF encode: \(message.isEmpty ? "libtiff failed" : message)")
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
internal import CTIFFShim

/// Owns one libtiff read handle (through CTIFFShim) over a file in memory, and turns its statuses into errors.
///
/// Not thread-safe: used by one decode at a time (the page decoder serializes access with a mutex).
final class TIFFReader {
    /// What one page is, as far as decoding it goes.
    struct Page {
        var size: PixelSize
        var orientation: ImageOrientation
        var bandHeight: Int
        var bandCount: Int
        /// The pixel format of the rows `readBand` writes.
        var format: PixelFormat
        /// Whether the samples are unpacked by the shim (exact) rather than libtiff's RGBA interface.
        var isDirect: Bool
    }

    /// Whether the current page's data ran short (its last rows decoded from zero samples).
    var isPageIncomplete: Bool { wi_tiff_reader_page_incomplete(reader) != 0 }

    private let reader: OpaquePointer

    /// Opens `data`. With `copy` false the bytes must stay valid and unmoved for the reader's life.
    /// Throws `.unsupportedFormat` when libtiff cannot be loaded.
    init(bytes: UnsafeRawBufferPointer, copy: Bool, maxSingleAllocation: Int) throws(ImageError) {
        try TIFFLibrary.load()
        guard
            let reader = wi_tiff_reader_create(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                copy ? 1 : 0, Int64(maxSingleAllocation))
        else {
            throw ImageError(.outOfMemory, "cannot create a libtiff reader")
        }
        self.reader = reader
        try check(wi_tiff_reader_open(reader))
    }

    deinit { wi_tiff_reader_destroy(reader) }

    /// The number of pages in the main IFD chain.
    var pageCount: Int { Int(wi_tiff_reader_page_count(reader)) }

    /// Warnings libtiff reported so far (kept off stderr).
    var warningCount: Int { Int(wi_tiff_reader_warnings(reader)) }

    /// Page `index`'s stored size, read from its directory only.
    func size(ofPage index: Int) throws(ImageError) -> PixelSize {
        var width: UInt32 = 0
        var height: UInt32 = 0
        try check(wi_tiff_reader_page_size(reader, Int32(clamping: index), &width, &height))
        return PixelSize(width: Int(width), height: Int(height))
    }

    /// Makes page `index` current, ready for `readBand` from band 0; `straightAlpha` asks for associated alpha to
    /// be divided out while unpacking (8-bit only).
    func selectPage(_ index: Int, want16Bit: Bool, straightAlpha: Bool) throws(ImageError) -> Page {
        var page = wi_tiff_page()
        try check(
            wi_tiff_reader_select_page(
                reader, Int32(clamping: index), want16Bit ? 1 : 0, straightAlpha ? 1 : 0,
                &page))
        let wide = want16Bit && page.can_output16 != 0
        let premultiplied = page.alpha == WI_TIFF_ALPHA_PREMULTIPLIED
        let format: PixelFormat =
            switch (wide, premultiplied) {
            case (false, false): .rgba8
            case (false, true): .premultipliedRGBA8
            case (true, false): .rgba16
            case (true, true): .premultipliedRGBA16
            }
        return Page(
            size: PixelSize(width: Int(page.width), height: Int(page.height)),
            orientation: ImageOrientation(rawValue: Int(page.orientation)) ?? .up,
            bandHeight: Int(page.band_height), bandCount: Int(page.band_count), format: format,
            isDirect: page.direct != 0)
    }

    /// Decodes band `band` of the current page into rows starting at `rows`, `bytesPerRow` apart.
    func readBand(_ band: Int, into rows: UnsafeMutableRawPointer, bytesPerRow: Int) throws(ImageError) {
        try check(wi_tiff_reader_read_band(reader, UInt32(band), rows, bytesPerRow))
    }

    /// The current page's ICC profile and XMP packet.
    func metadata() -> ImageMetadata {
        ImageMetadata(iccProfile: blob(34675), exif: nil, xmp: blob(700))
    }

    private func blob(_ tag: UInt32) -> Data? {
        var size: UInt32 = 0
        guard let bytes = wi_tiff_reader_blob(reader, tag, &size) else { return nil }
        return Data(bytes: bytes, count: Int(size))
    }

    /// The one place shim statuses become errors.
    private func check(_ status: wi_tiff_status) throws(ImageError) {
        let message = String(cString: wi_tiff_reader_message(reader))
        switch status {
        case WI_TIFF_OK: return
        case WI_TIFF_OUT_OF_MEMORY:
            throw ImageError(.outOfMemory, "TIFF: \(message.isEmpty ? "out of memory" : message)")
        case WI_TIFF_UNSUPPORTED: throw ImageError(.badImageData, "TIFF: unsupported layout: \(message)")
        default: throw ImageError(.badImageData, "TIFF: \(message.isEmpty ? "invalid data" : message)")
        }
    }
}

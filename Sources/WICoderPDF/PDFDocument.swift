#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
internal import CPoppler

/// An open PDF document: owns its `PopplerDocument` and frees it in deinit.
///
/// poppler reads the bytes in place (a GMemoryInputStream over them), so a document must not outlive the buffer
/// it was opened on: `PDFRendering` keeps both inside one `withUnsafeBytes`. Opened as a stream, not with
/// `poppler_document_new_from_bytes`: poppler 22.12's from_bytes crashes on a wrong password (its retry with the
/// password's other encoding reuses a stream it has already freed; `PDFDecodeTests` covers the wrong password).
///
/// Thread safety: not thread-safe; one document lives inside one decode call.
final class PDFDocument {
    private let document: OpaquePointer

    init(reading bytes: UnsafeRawBufferPointer, password: String?) throws(ImageError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw ImageError(.badImageData, "empty PDF") }
        guard let stream = g_memory_input_stream_new_from_data(base, gssize(bytes.count), nil) else {
            throw ImageError(.outOfMemory, "cannot make a GMemoryInputStream")
        }
        defer { g_object_unref(stream) }
        var error: UnsafeMutablePointer<GError>?
        let document = poppler_document_new_from_stream(stream, goffset(bytes.count), password, nil, &error)
        guard let document else { throw PDFError.take(error, "poppler open") }
        PDFError.discard(error)
        self.document = document
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(document)) }

    var pageCount: Int { Int(poppler_document_get_n_pages(document)) }

    /// Page `index` (0-based), which must be below `pageCount`.
    func page(_ index: Int) throws(ImageError) -> PDFPage {
        guard index >= 0, index < pageCount, let page = poppler_document_get_page(document, Int32(index)) else {
            throw ImageError(.badImageData, "the PDF has no page \(index + 1) (it has \(pageCount))")
        }
        return PDFPage(page)
    }
}

/// One page of an open document; owns its `PopplerPage` (which holds a reference to the document).
final class PDFPage {
    private let page: OpaquePointer

    init(_ page: OpaquePointer) { self.page = page }

    deinit { g_object_unref(UnsafeMutableRawPointer(page)) }

    /// The page's size in points, with its /Rotate applied.
    var size: (width: Double, height: Double) {
        var width = 0.0, height = 0.0
        poppler_page_get_size(page, &width, &height)
        return (width, height)
    }

    /// Draws the page on `context` (a `cairo_t *`) in points.
    func render(on context: OpaquePointer) { poppler_page_render(page, context) }
}

/// The one place glib's `GError`s from poppler become `ImageError`s (and are freed).
enum PDFError {
    /// `.passwordRequired` for an encrypted document, else `.badImageData` with poppler's message; frees the GError.
    static func take(_ error: UnsafeMutablePointer<GError>?, _ action: String) -> ImageError {
        guard let error else { return ImageError(.badImageData, "\(action) failed") }
        defer { g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? "error \(error.pointee.code)"
        if error.pointee.domain == poppler_error_quark() && error.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) {
            return ImageError(.passwordRequired, "\(action): the document is encrypted: \(message)")
        }
        return ImageError(.badImageData, "\(action): \(message)")
    }

    /// Frees a GError that came with a success (none is expected).
    static func discard(_ error: UnsafeMutablePointer<GError>?) {
        if let error { g_error_free(error) }
    }
}

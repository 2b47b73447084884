#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
internal import CPopplerShim

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
    private let poppler: wi_poppler_functions

    /// Throws `.unsupportedFormat` when poppler-glib cannot be loaded.
    init(reading bytes: UnsafeRawBufferPointer, password: String?) throws(ImageError) {
        let poppler = try PopplerLibrary.shared.get().functions
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw ImageError(.badImageData, "empty PDF") }
        guard let stream = poppler.g_memory_input_stream_new_from_data(base, gssize(bytes.count), nil) else {
            throw ImageError(.outOfMemory, "cannot make a GMemoryInputStream")
        }
        defer { poppler.g_object_unref(stream) }
        var error: UnsafeMutablePointer<GError>?
        let document = poppler.poppler_document_new_from_stream(stream, goffset(bytes.count), password, nil, &error)
        guard let document else { throw PDFError.take(error, "poppler open", poppler) }
        PDFError.discard(error, poppler)
        self.document = document
        self.poppler = poppler
    }

    deinit { poppler.g_object_unref(UnsafeMutableRawPointer(document)) }

    var pageCount: Int { Int(poppler.poppler_document_get_n_pages(document)) }

    /// Page `index` (0-based), which must be below `pageCount`.
    func page(_ index: Int) throws(ImageError) -> PDFPage {
        guard index >= 0, index < pageCount, let page = poppler.poppler_document_get_page(document, Int32(index)) else {
            throw ImageError(.badImageData, "the PDF has no page \(index + 1) (it has \(pageCount))")
        }
        return PDFPage(page, poppler)
    }
}

/// One page of an open document; owns its `PopplerPage` (which holds a reference to the document).
final class PDFPage {
    private let page: OpaquePointer
    private let poppler: wi_poppler_functions

    init(_ page: OpaquePointer, _ poppler: wi_poppler_functions) {
        self.page = page
        self.poppler = poppler
    }

    deinit { poppler.g_object_unref(UnsafeMutableRawPointer(page)) }

    /// The page's size in points, with its /Rotate applied.
    var size: (width: Double, height: Double) {
        var width = 0.0
        var height = 0.0
        poppler.poppler_page_get_size(page, &width, &height)
        return (width, height)
    }

    /// Draws the page on `context` (a `cairo_t *`) in points.
    func render(on context: OpaquePointer) { poppler.poppler_page_render(page, context) }
}

/// The one place glib's `GError`s from poppler become `ImageError`s (and are freed).
enum PDFError {
    /// `.passwordRequired` for an encrypted document, else `.badImageData` with poppler's message; frees the GError.
    static func take(_ error: UnsafeMutablePointer<GError>?, _ action: String, _ poppler: wi_poppler_functions)
        -> ImageError
    {
        guard let error else { return ImageError(.badImageData, "\(action) failed") }
        defer { poppler.g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? "error \(error.pointee.code)"
        if error.pointee.domain == poppler.poppler_error_quark()
            && error.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue)
        {
            return ImageError(.passwordRequired, "\(action): the document is encrypted: \(message)")
        }
        return ImageError(.badImageData, "\(action): \(message)")
    }

    /// Frees a GError that came with a success (none is expected).
    static func discard(_ error: UnsafeMutablePointer<GError>?, _ poppler: wi_poppler_functions) {
        if let error { poppler.g_error_free(error) }
    }
}

/// libpoppler-glib.so.8 (with GLib through it), opened the first time a PDF is opened (WICore's `SharedLibrary`).
package enum PopplerLibrary {
    /// The library and its functions, or why it could not be loaded (`.unsupportedFormat`); opened once.
    static let shared = Result { () throws(ImageError) in try open(soname: "libpoppler-glib.so.8") }

    /// Opens the library now, if it is there (a decode worker, before its sandbox).
    static func open() { _ = try? shared.get() }

    static func open(soname: String) throws(ImageError) -> SharedLibrary<wi_poppler_functions> {
        try SharedLibrary(soname: soname, bind: wi_poppler_bind)
    }

    /// Opens `soname` as poppler-glib and binds every function, as the first PDF does, then lets it go: the test
    /// hook for a library that is missing or lacks a function.
    package static func check(soname: String) throws(ImageError) { _ = try open(soname: soname) }
}

import Foundation
import WICore
internal import CRsvg

/// A parsed SVG document: owns its `RsvgHandle` and frees it in deinit.
///
/// Thread safety: not thread-safe; one document lives inside one decode call.
final class SVGDocument {
    private let handle: UnsafeMutablePointer<RsvgHandle>

    /// Parses `bytes` with no base file, so that no external reference can be resolved; 96 dpi as rsvg-convert.
    /// The bytes are not kept: librsvg has parsed the whole document when this returns.
    init(parsing bytes: UnsafeRawBufferPointer) throws(ImageError) {
        guard let stream = g_memory_input_stream_new_from_data(bytes.baseAddress, gssize(bytes.count), nil) else {
            throw ImageError(.outOfMemory, "cannot make a GMemoryInputStream")
        }
        defer { g_object_unref(stream) }
        var error: UnsafeMutablePointer<GError>?
        let handle = rsvg_handle_new_from_stream_sync(stream, nil, RSVG_HANDLE_FLAGS_NONE, nil, &error)
        guard let handle else { throw GLibError.take(error, "librsvg parse") }
        GLibError.discard(error)
        self.handle = handle
        rsvg_handle_set_dpi(handle, 96)
    }

    deinit { g_object_unref(handle) }

    /// The document's size in CSS pixels from its width and height attributes, or nil when it has none usable
    /// (missing, percentages, zero or negative).
    var intrinsicSize: (width: Double, height: Double)? {
        var width = 0.0, height = 0.0
        guard rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0,
              width.isFinite, height.isFinite, width > 0, height > 0 else { return nil }
        return (width, height)
    }

    /// The viewBox's width / height, or nil when the document has no usable viewBox.
    var viewBoxAspect: Double? {
        var hasViewBox: gboolean = 0
        var viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(handle, nil, nil, nil, nil, &hasViewBox, &viewBox)
        guard hasViewBox != 0, viewBox.width.isFinite, viewBox.height.isFinite,
              viewBox.width > 0, viewBox.height > 0 else { return nil }
        return viewBox.width / viewBox.height
    }

    /// Draws the whole document into `viewport` (in the context's user space) on `context` (a `cairo_t *`).
    func render(on context: OpaquePointer, viewport: (width: Double, height: Double)) throws(ImageError) {
        var rectangle = RsvgRectangle(x: 0, y: 0, width: viewport.width, height: viewport.height)
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_render_document(handle, context, &rectangle, &error) != 0 else {
            throw GLibError.take(error, "librsvg render")
        }
        GLibError.discard(error)
    }
}

/// The one place glib's `GError`s become `ImageError`s (and are freed).
enum GLibError {
    /// An `ImageError` (`.badImageData`) carrying the GError's message, freeing the GError.
    static func take(_ error: UnsafeMutablePointer<GError>?, _ action: String) -> ImageError {
        guard let error else { return ImageError(.badImageData, "\(action) failed") }
        defer { g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? "error \(error.pointee.code)"
        return ImageError(.badImageData, "\(action): \(message)")
    }

    /// Frees a GError that came with a success (none is expected).
    static func discard(_ error: UnsafeMutablePointer<GError>?) {
        if let error { g_error_free(error) }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
internal import CRsvgShim

/// A parsed SVG document: owns its `RsvgHandle` and frees it in deinit.
///
/// Thread safety: not thread-safe; one document lives inside one decode call.
final class SVGDocument {
    private let handle: UnsafeMutablePointer<RsvgHandle>
    private let rsvg: wi_rsvg_functions
    private let dpi: Double

    /// Parses `bytes` with no base file, so that no external reference can be resolved; lengths in inches,
    /// centimetres, millimetres, points and picas at `dpi` (rsvg-convert's is 96).
    /// The bytes are not kept: librsvg has parsed the whole document when this returns.
    /// Throws `.unsupportedFormat` when librsvg cannot be loaded.
    init(parsing bytes: UnsafeRawBufferPointer, dpi: Double) throws(ImageError) {
        let rsvg = try RsvgLibrary.shared.get().functions
        guard let stream = rsvg.g_memory_input_stream_new_from_data(bytes.baseAddress, gssize(bytes.count), nil) else {
            throw ImageError(.outOfMemory, "cannot make a GMemoryInputStream")
        }
        defer { rsvg.g_object_unref(stream) }
        var error: UnsafeMutablePointer<GError>?
        let handle = rsvg.rsvg_handle_new_from_stream_sync(stream, nil, RSVG_HANDLE_FLAGS_NONE, nil, &error)
        guard let handle else { throw GLibError.take(error, "librsvg parse", rsvg) }
        GLibError.discard(error, rsvg)
        self.handle = handle
        self.rsvg = rsvg
        self.dpi = dpi
        rsvg.rsvg_handle_set_dpi(handle, dpi)
    }

    deinit { rsvg.g_object_unref(handle) }

    /// What the root element says about the document's size: width and height in CSS pixels where they are
    /// absolute lengths (not percentages, em or ex), and the viewBox's size in user units (CSS pixels).
    struct Dimensions {
        var width: Double?
        var height: Double?
        var viewBox: (width: Double, height: Double)?
        /// The viewBox's width / height.
        var aspect: Double? { viewBox.map { $0.width / $0.height } }
    }

    var dimensions: Dimensions {
        var width = 0.0
        var height = 0.0
        var hasWidth: gboolean = 0
        var hasHeight: gboolean = 0
        var hasViewBox: gboolean = 0
        var widthLength = RsvgLength()
        var heightLength = RsvgLength()
        var viewBox = RsvgRectangle()
        rsvg.rsvg_handle_get_intrinsic_dimensions(
            handle, &hasWidth, &widthLength, &hasHeight, &heightLength,
            &hasViewBox, &viewBox)
        var result = Dimensions()
        if rsvg.rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0 {
            result.width = Self.usable(width)
            result.height = Self.usable(height)
        } else {
            result.width = hasWidth != 0 ? pixels(widthLength) : nil
            result.height = hasHeight != 0 ? pixels(heightLength) : nil
        }
        if hasViewBox != 0, let w = Self.usable(viewBox.width), let h = Self.usable(viewBox.height) {
            result.viewBox = (w, h)
        }
        return result
    }

    /// An absolute length in pixels at the document's dpi (CSS pixels as they are); nil for relative units
    /// (percent, em, ex) and unusable values.
    private func pixels(_ length: RsvgLength) -> Double? {
        let perUnit: Double? =
            switch length.unit {
            case RSVG_UNIT_PX: 1
            case RSVG_UNIT_IN: dpi
            case RSVG_UNIT_CM: dpi / 2.54
            case RSVG_UNIT_MM: dpi / 25.4
            case RSVG_UNIT_PT: dpi / 72
            case RSVG_UNIT_PC: dpi / 6
            default: nil
            }
        return perUnit.flatMap { Self.usable(length.length * $0) }
    }

    private static func usable(_ value: Double) -> Double? { value.isFinite && value > 0 ? value : nil }

    /// Draws the whole document into `viewport` (in the context's user space) on `context` (a `cairo_t *`), placed
    /// in it as the document's viewBox and `preserveAspectRatio` say.
    func render(
        on context: OpaquePointer, viewport: (x: Double, y: Double, width: Double, height: Double)
    ) throws(ImageError) {
        var rectangle = RsvgRectangle(x: viewport.x, y: viewport.y, width: viewport.width, height: viewport.height)
        var error: UnsafeMutablePointer<GError>?
        guard rsvg.rsvg_handle_render_document(handle, context, &rectangle, &error) != 0 else {
            throw GLibError.take(error, "librsvg render", rsvg)
        }
        GLibError.discard(error, rsvg)
    }
}

/// The one place glib's `GError`s become `ImageError`s (and are freed).
enum GLibError {
    /// An `ImageError` (`.badImageData`) carrying the GError's message, freeing the GError.
    static func take(_ error: UnsafeMutablePointer<GError>?, _ action: String, _ rsvg: wi_rsvg_functions) -> ImageError
    {
        guard let error else { return ImageError(.badImageData, "\(action) failed") }
        defer { rsvg.g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? "error \(error.pointee.code)"
        return ImageError(.badImageData, "\(action): \(message)")
    }

    /// Frees a GError that came with a success (none is expected).
    static func discard(_ error: UnsafeMutablePointer<GError>?, _ rsvg: wi_rsvg_functions) {
        if let error { rsvg.g_error_free(error) }
    }
}

/// librsvg-2.so.2 (with GLib through it), opened the first time an SVG is parsed (WICore's `SharedLibrary`).
package enum RsvgLibrary {
    /// The library and its functions, or why it could not be loaded (`.unsupportedFormat`); opened once.
    static let shared = Result { () throws(ImageError) in try open(soname: "librsvg-2.so.2") }

    /// Opens the library now, if it is there (a decode worker, before its sandbox).
    static func open() { _ = try? shared.get() }

    static func open(soname: String) throws(ImageError) -> SharedLibrary<wi_rsvg_functions> {
        try SharedLibrary(soname: soname, bind: wi_rsvg_bind)
    }

    /// Opens `soname` as librsvg and binds every function, as the first SVG does, then lets it go: the test hook
    /// for a library that is missing or lacks a function.
    package static func check(soname: String) throws(ImageError) { _ = try open(soname: soname) }
}

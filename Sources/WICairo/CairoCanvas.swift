import WICore
private import CCairoShim

/// A cairo image surface and drawing context over a `PixelBuffer`'s own memory, for the vector coders
/// (WICoderSVG, WICoderPDF): the renderer draws straight into the output buffer, which `finish` then turns from
/// cairo's premultiplied ARGB32 into RGBA in place, with no second full-size buffer.
///
/// Thread safety: not thread-safe; one canvas lives inside one decode call.
package final class CairoCanvas {
    /// The `cairo_t` to hand to librsvg or poppler (an opaque `cairo_t *`).
    package let context: OpaquePointer
    private let cairo: wi_cairo_functions
    private let surface: OpaquePointer
    private var buffer: PixelBuffer

    /// A transparent `size` canvas whose pixels `finish` gives as premultiplied or straight RGBA8. The caller checks
    /// the pixel limit first; this throws `.outOfMemory` when the buffer cannot be allocated and
    /// `.pixelLimitExceeded` when cairo refuses the size (over 32767 pixels a side), `.unsupportedFormat` when cairo
    /// cannot be loaded.
    package init(size: PixelSize, premultiplied: Bool) throws(ImageError) {
        let cairo = try CairoLibrary.shared.get().functions
        guard size.width <= 32767, size.height <= 32767 else {
            throw ImageError(.pixelLimitExceeded, "cairo image surfaces are at most 32767 pixels a side, not \(size)")
        }
        let stride = Int(cairo.cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(size.width)))
        guard stride >= size.width * 4 else {
            throw ImageError(.pixelLimitExceeded, "cairo cannot make a \(size) ARGB32 surface")
        }
        var buffer = try PixelBuffer(
            width: size.width, height: size.height, format: premultiplied ? .premultipliedRGBA8 : .rgba8,
            bytesPerRow: stride, zeroed: true)
        let base = try buffer.withUnsafeMutableBytes { $0.baseAddress! }
        guard
            let surface = cairo.cairo_image_surface_create_for_data(
                base.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height),
                Int32(stride))
        else { throw ImageError(.outOfMemory, "cairo_image_surface_create_for_data failed") }
        guard cairo.cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            let message = CairoLibrary.describe(cairo.cairo_surface_status(surface), cairo)
            cairo.cairo_surface_destroy(surface)
            throw ImageError(.outOfMemory, "cairo surface: \(message)")
        }
        guard let context = cairo.cairo_create(surface) else {
            cairo.cairo_surface_destroy(surface)
            throw ImageError(.outOfMemory, "cairo_create failed")
        }
        self.cairo = cairo
        self.surface = surface
        self.context = context
        self.buffer = buffer
    }

    deinit {
        cairo.cairo_destroy(context)
        cairo.cairo_surface_destroy(surface)
    }

    /// Paints the whole canvas opaque white (paper, for PDF pages).
    package func fillWhite() {
        cairo.cairo_save(context)
        cairo.cairo_set_source_rgb(context, 1, 1, 1)
        cairo.cairo_paint(context)
        cairo.cairo_restore(context)
    }

    /// Scales later drawing by `x` and `y`.
    package func scale(x: Double, y: Double) { cairo.cairo_scale(context, x, y) }

    /// cairo's error state after drawing, as an `ImageError`, or nil when drawing succeeded.
    package var drawingError: ImageError? {
        let status = cairo.cairo_status(context)
        guard status != CAIRO_STATUS_SUCCESS else { return nil }
        let message = CairoLibrary.describe(status, cairo)
        return ImageError(status == CAIRO_STATUS_NO_MEMORY ? .outOfMemory : .badImageData, "cairo: \(message)")
    }

    /// Ends drawing and returns the pixels in the format asked for at init (converted in place); drawing on the
    /// canvas afterwards does nothing.
    package func finish() throws(ImageError) -> PixelBuffer {
        cairo.cairo_surface_flush(surface)
        cairo.cairo_surface_finish(surface)  // cairo never touches the memory again
        try CairoPixels.convertARGB32(&buffer)
        return buffer
    }
}

/// libcairo.so.2, opened the first time a canvas is made (WICore's `SharedLibrary`).
package enum CairoLibrary {
    /// The library and its functions, or why it could not be loaded (`.unsupportedFormat`); opened once.
    fileprivate static let shared = Result { () throws(ImageError) in try open(soname: "libcairo.so.2") }

    /// Opens the library now, if it is there (a decode worker, before its sandbox).
    package static func open() { _ = try? shared.get() }

    private static func open(soname: String) throws(ImageError) -> SharedLibrary<wi_cairo_functions> {
        try SharedLibrary(soname: soname, bind: wi_cairo_bind)
    }

    /// Opens `soname` as cairo and binds every function, as the first canvas does, then lets it go: the test hook
    /// for a library that is missing or lacks a function.
    package static func check(soname: String) throws(ImageError) { _ = try open(soname: soname) }

    /// cairo's text for `status`.
    fileprivate static func describe(_ status: cairo_status_t, _ cairo: wi_cairo_functions) -> String {
        cairo.cairo_status_to_string(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
    }
}

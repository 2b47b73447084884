import WICore
private import CCairo

/// A cairo image surface and drawing context over a `PixelBuffer`'s own memory, for the vector coders
/// (WICoderSVG, WICoderPDF): the renderer draws straight into the output buffer, which `finish` then turns from
/// cairo's premultiplied ARGB32 into RGBA in place, with no second full-size buffer.
///
/// Thread safety: not thread-safe; one canvas lives inside one decode call.
package final class CairoCanvas {
    /// The `cairo_t` to hand to librsvg or poppler (an opaque `cairo_t *`).
    package let context: OpaquePointer
    private let surface: OpaquePointer
    private var buffer: PixelBuffer

    /// A transparent `size` canvas whose pixels `finish` gives as premultiplied or straight RGBA8. The caller checks
    /// the pixel limit first; this throws `.outOfMemory` when the buffer cannot be allocated and
    /// `.pixelLimitExceeded` when cairo refuses the size (over 32767 pixels a side).
    package init(size: PixelSize, premultiplied: Bool) throws(ImageError) {
        guard size.width <= 32767, size.height <= 32767 else {
            throw ImageError(.pixelLimitExceeded, "cairo image surfaces are at most 32767 pixels a side, not \(size)")
        }
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(size.width)))
        guard stride >= size.width * 4 else {
            throw ImageError(.pixelLimitExceeded, "cairo cannot make a \(size) ARGB32 surface")
        }
        var buffer = try PixelBuffer(width: size.width, height: size.height, format: premultiplied ? .premultipliedRGBA8 : .rgba8,
                                     bytesPerRow: stride, zeroed: true)
        let base = try buffer.withUnsafeMutableBytes { $0.baseAddress! }
        guard let surface = cairo_image_surface_create_for_data(
            base.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height),
            Int32(stride))
        else { throw ImageError(.outOfMemory, "cairo_image_surface_create_for_data failed") }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            let message = String(cString: cairo_status_to_string(cairo_surface_status(surface)))
            cairo_surface_destroy(surface)
            throw ImageError(.outOfMemory, "cairo surface: \(message)")
        }
        guard let context = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            throw ImageError(.outOfMemory, "cairo_create failed")
        }
        self.surface = surface
        self.context = context
        self.buffer = buffer
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Paints the whole canvas opaque white (paper, for PDF pages).
    package func fillWhite() {
        cairo_save(context)
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        cairo_restore(context)
    }

    /// Scales later drawing by `x` and `y`.
    package func scale(x: Double, y: Double) { cairo_scale(context, x, y) }

    /// cairo's error state after drawing, as an `ImageError`, or nil when drawing succeeded.
    package var drawingError: ImageError? {
        let status = cairo_status(context)
        guard status != CAIRO_STATUS_SUCCESS else { return nil }
        let message = String(cString: cairo_status_to_string(status))
        return ImageError(status == CAIRO_STATUS_NO_MEMORY ? .outOfMemory : .badImageData, "cairo: \(message)")
    }

    /// Ends drawing and returns the pixels in the format asked for at init (converted in place); drawing on the
    /// canvas afterwards does nothing.
    package func finish() throws(ImageError) -> PixelBuffer {
        cairo_surface_flush(surface)
        cairo_surface_finish(surface)   // cairo never touches the memory again
        try CairoPixels.convertARGB32(&buffer)
        return buffer
    }
}

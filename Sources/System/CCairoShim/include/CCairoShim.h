// CCairoShim: the cairo functions WICairo calls, as a table bound with dlsym when the first SVG or PDF is drawn.
//
// Why this exists: cairo brings X11, fontconfig, freetype and their dependencies (about 20 shared objects); linked
// at build time they are loaded and relocated by every process that links the vector coders, even one that never
// draws. Each field has the type of the cairo function of the same name, from cairo's own header (__typeof__), so
// the compiler checks every call and no prototype is written here. Symbols are prefixed wi_cairo_.
#ifndef CCAIROSHIM_H
#define CCAIROSHIM_H
#include <cairo.h>

#define WI_CAIRO_FUNCTIONS(X) \
    X(cairo_format_stride_for_width) \
    X(cairo_image_surface_create_for_data) \
    X(cairo_surface_status) \
    X(cairo_surface_flush) \
    X(cairo_surface_finish) \
    X(cairo_surface_destroy) \
    X(cairo_status_to_string) \
    X(cairo_create) \
    X(cairo_destroy) \
    X(cairo_status) \
    X(cairo_save) \
    X(cairo_restore) \
    X(cairo_set_source_rgb) \
    X(cairo_paint) \
    X(cairo_scale)

#define WI_CAIRO_FIELD(name) __typeof__(name) *_Nonnull name;
/// cairo's functions, bound by wi_cairo_bind.
typedef struct { WI_CAIRO_FUNCTIONS(WI_CAIRO_FIELD) } wi_cairo_functions;
#undef WI_CAIRO_FIELD

/// Looks every function up in `handle` (dlopen of libcairo.so.2); returns the first name it cannot find, or NULL
/// when `functions` is complete.
const char *_Nullable wi_cairo_bind(void *_Nonnull handle, wi_cairo_functions *_Nonnull functions);

#endif

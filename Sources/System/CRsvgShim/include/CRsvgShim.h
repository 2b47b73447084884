// CRsvgShim: the librsvg and GLib functions WICoderSVG calls, as a table bound with dlsym on the first SVG.
//
// Why this exists: librsvg brings GLib, GIO, gdk-pixbuf, pango, harfbuzz, libxml2 and ICU (about 50 shared
// objects, the largest part of a process's start-up when linked at build time). Opened on first use, a process
// that meets no SVG never loads them. Each field has the type of the function of the same name, from librsvg's and
// GLib's own headers (__typeof__), so the compiler checks every call and no prototype is written here. The GLib
// functions are looked up through librsvg's handle (dlsym searches its dependencies). Symbols are prefixed wi_rsvg_.
#ifndef CRSVGSHIM_H
#define CRSVGSHIM_H
#include <librsvg/rsvg.h>
#include <gio/gio.h>

#define WI_RSVG_FUNCTIONS(X) \
    X(rsvg_handle_new_from_stream_sync) \
    X(rsvg_handle_set_dpi) \
    X(rsvg_handle_get_intrinsic_dimensions) \
    X(rsvg_handle_get_intrinsic_size_in_pixels) \
    X(rsvg_handle_render_document) \
    X(g_memory_input_stream_new_from_data) \
    X(g_object_unref) \
    X(g_error_free)

#define WI_RSVG_FIELD(name) __typeof__(name) *_Nonnull name;
/// librsvg's and GLib's functions, bound by wi_rsvg_bind.
typedef struct { WI_RSVG_FUNCTIONS(WI_RSVG_FIELD) } wi_rsvg_functions;
#undef WI_RSVG_FIELD

/// Looks every function up in `handle` (dlopen of librsvg-2.so.2); returns the first name it cannot find, or NULL
/// when `functions` is complete.
const char *_Nullable wi_rsvg_bind(void *_Nonnull handle, wi_rsvg_functions *_Nonnull functions);

#endif

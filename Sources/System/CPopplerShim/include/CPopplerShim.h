// CPopplerShim: the poppler-glib and GLib functions WICoderPDF calls, as a table bound with dlsym on the first PDF.
//
// Why this exists: poppler-glib brings poppler, GLib, GIO, cairo, NSS, lcms2, openjpeg and their dependencies
// (about 50 shared objects, the largest part of a process's start-up when linked at build time). Opened on first
// use, a process that meets no PDF never loads them. Each field has the type of the function of the same name, from
// poppler's and GLib's own headers (__typeof__), so the compiler checks every call and no prototype is written
// here. The GLib functions are looked up through poppler-glib's handle (dlsym searches its dependencies). Symbols
// are prefixed wi_poppler_.
#ifndef CPOPPLERSHIM_H
#define CPOPPLERSHIM_H
#include <poppler.h>
#include <gio/gio.h>

#define WI_POPPLER_FUNCTIONS(X) \
    X(poppler_document_new_from_stream) \
    X(poppler_document_get_n_pages) \
    X(poppler_document_get_page) \
    X(poppler_page_get_size) \
    X(poppler_page_render) \
    X(poppler_error_quark) \
    X(g_memory_input_stream_new_from_data) \
    X(g_object_unref) \
    X(g_error_free)

#define WI_POPPLER_FIELD(name) __typeof__(name) *_Nonnull name;
/// poppler-glib's and GLib's functions, bound by wi_poppler_bind.
typedef struct { WI_POPPLER_FUNCTIONS(WI_POPPLER_FIELD) } wi_poppler_functions;
#undef WI_POPPLER_FIELD

/// Looks every function up in `handle` (dlopen of libpoppler-glib.so.8); returns the first name it cannot find, or
/// NULL when `functions` is complete.
const char *_Nullable wi_poppler_bind(void *_Nonnull handle, wi_poppler_functions *_Nonnull functions);

#endif

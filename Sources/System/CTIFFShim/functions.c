// Binding libtiff's functions (see functions.h).
#include <dlfcn.h>
#include <stddef.h>
#include <tiffio.h>
#include "CTIFFShim.h"

// Declared here, before functions.h renames the functions, so that __typeof__ and #name see libtiff's own names.
#define WI_TIFF_NO_RENAME
#include "functions.h"

wi_tiff_functions wi_tiff_library;

const char *wi_tiff_bind(void *handle, int install) {
    wi_tiff_functions functions;
#define WI_TIFF_BIND(name) if (!(functions.name = (__typeof__(name) *)dlsym(handle, #name))) return #name;
    WI_TIFF_FUNCTIONS(WI_TIFF_BIND)
#undef WI_TIFF_BIND
    if (install) wi_tiff_library = functions;
    return NULL;
}

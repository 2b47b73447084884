#include "CCairoShim.h"
#include <dlfcn.h>
#include <stddef.h>

const char *wi_cairo_bind(void *handle, wi_cairo_functions *functions) {
#define WI_CAIRO_BIND(name) if (!(functions->name = (__typeof__(name) *)dlsym(handle, #name))) return #name;
    WI_CAIRO_FUNCTIONS(WI_CAIRO_BIND)
#undef WI_CAIRO_BIND
    return NULL;
}

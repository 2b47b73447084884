#include "CRsvgShim.h"
#include <dlfcn.h>
#include <stddef.h>

const char *wi_rsvg_bind(void *handle, wi_rsvg_functions *functions) {
#define WI_RSVG_BIND(name) if (!(functions->name = (__typeof__(name) *)dlsym(handle, #name))) return #name;
    WI_RSVG_FUNCTIONS(WI_RSVG_BIND)
#undef WI_RSVG_BIND
    return NULL;
}

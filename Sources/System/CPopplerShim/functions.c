#include "CPopplerShim.h"
#include <dlfcn.h>
#include <stddef.h>

const char *wi_poppler_bind(void *handle, wi_poppler_functions *functions) {
#define WI_POPPLER_BIND(name) if (!(functions->name = (__typeof__(name) *)dlsym(handle, #name))) return #name;
    WI_POPPLER_FUNCTIONS(WI_POPPLER_BIND)
#undef WI_POPPLER_BIND
    return NULL;
}

#include "CHeifShim.h"
#include <dlfcn.h>
#include <stddef.h>

const char *wi_heif_bind(void *handle, wi_heif_functions *functions) {
#define WI_HEIF_BIND(name) if (!(functions->name = (__typeof__(name) *)dlsym(handle, #name))) return #name;
    WI_HEIF_FUNCTIONS(WI_HEIF_BIND)
#undef WI_HEIF_BIND
    return NULL;
}

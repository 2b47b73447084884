#include "CJXLShim.h"
#include <dlfcn.h>
#include <stddef.h>

const char *wi_jxl_bind(void *handle, wi_jxl_functions *functions) {
#define WI_JXL_BIND(name) if (!(functions->name = (__typeof__(name) *)dlsym(handle, #name))) return #name;
    WI_JXL_FUNCTIONS(WI_JXL_BIND)
#undef WI_JXL_BIND
    return NULL;
}

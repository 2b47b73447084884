// Binding Little CMS's functions (see functions.h).
#include <dlfcn.h>
#include <stddef.h>
#include <lcms2.h>
#include "CLCMSShim.h"

// Declared here, before functions.h renames the functions, so that __typeof__ and #name see lcms's own names.
#define WI_LCMS_NO_RENAME
#include "functions.h"

wi_lcms_functions wi_lcms_library;

const char *wi_lcms_bind(void *handle, int install) {
    wi_lcms_functions functions;
#define WI_LCMS_BIND(name) if (!(functions.name = (__typeof__(name) *)dlsym(handle, #name))) return #name;
    WI_LCMS_FUNCTIONS(WI_LCMS_BIND)
#undef WI_LCMS_BIND
    if (install) wi_lcms_library = functions;
    return NULL;
}

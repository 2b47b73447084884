// Little CMS's functions, called through a table bound with dlsym the first time a colour conversion is asked for
// (WIColor's `LittleCMSLibrary`, WICore's `SharedLibrary`), so that a process that never converts never loads
// liblcms2. Each field has the type of the lcms function of the same name (__typeof__ over lcms2.h), and each name
// below is redefined to read its field, so the shim calls lcms as written and the compiler checks every call.
// Included by convert.c after lcms2.h; not seen by Swift.
#ifndef WI_LCMS_FUNCTIONS_H
#define WI_LCMS_FUNCTIONS_H
#include <lcms2.h>

#define WI_LCMS_FUNCTIONS(X) \
    X(cmsBuildParametricToneCurve) \
    X(cmsCloseProfile) \
    X(cmsCreateContext) \
    X(cmsCreateRGBProfileTHR) \
    X(cmsCreateTransformTHR) \
    X(cmsCreate_sRGBProfileTHR) \
    X(cmsDeleteContext) \
    X(cmsDeleteTransform) \
    X(cmsDoTransformLineStride) \
    X(cmsFreeToneCurve) \
    X(cmsGetColorSpace) \
    X(cmsGetContextUserData) \
    X(cmsGetEncodedCMMversion) \
    X(cmsOpenProfileFromMemTHR) \
    X(cmsSetLogErrorHandlerTHR)

#define WI_LCMS_FIELD(name) __typeof__(name) *name;
/// Little CMS's functions, bound by wi_lcms_bind.
typedef struct { WI_LCMS_FUNCTIONS(WI_LCMS_FIELD) } wi_lcms_functions;
#undef WI_LCMS_FIELD

/// The table every call below goes through; complete once wi_lcms_bind(handle, 1) returned NULL.
extern wi_lcms_functions wi_lcms_library;

#ifndef WI_LCMS_NO_RENAME
#define cmsBuildParametricToneCurve (wi_lcms_library.cmsBuildParametricToneCurve)
#define cmsCloseProfile (wi_lcms_library.cmsCloseProfile)
#define cmsCreateContext (wi_lcms_library.cmsCreateContext)
#define cmsCreateRGBProfileTHR (wi_lcms_library.cmsCreateRGBProfileTHR)
#define cmsCreateTransformTHR (wi_lcms_library.cmsCreateTransformTHR)
#define cmsCreate_sRGBProfileTHR (wi_lcms_library.cmsCreate_sRGBProfileTHR)
#define cmsDeleteContext (wi_lcms_library.cmsDeleteContext)
#define cmsDeleteTransform (wi_lcms_library.cmsDeleteTransform)
#define cmsDoTransformLineStride (wi_lcms_library.cmsDoTransformLineStride)
#define cmsFreeToneCurve (wi_lcms_library.cmsFreeToneCurve)
#define cmsGetColorSpace (wi_lcms_library.cmsGetColorSpace)
#define cmsGetContextUserData (wi_lcms_library.cmsGetContextUserData)
#define cmsGetEncodedCMMversion (wi_lcms_library.cmsGetEncodedCMMversion)
#define cmsOpenProfileFromMemTHR (wi_lcms_library.cmsOpenProfileFromMemTHR)
#define cmsSetLogErrorHandlerTHR (wi_lcms_library.cmsSetLogErrorHandlerTHR)
#endif
#endif

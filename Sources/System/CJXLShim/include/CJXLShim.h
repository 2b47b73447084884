// CJXLShim: the libjxl functions WICoderJXL calls, as a table bound with dlsym on the first JPEG XL file.
//
// Why this exists: libjxl brings highway, brotli and lcms2; highway's static initialisers (its CPU dispatch
// tables) and the relocations cost every process that links it, even one that never meets JPEG XL. Opened on
// first use, a process that meets none never loads them. Each field has the type of the libjxl function of the
// same name, from libjxl's own headers (__typeof__), so the compiler checks every call and no prototype is written
// here. Symbols are prefixed wi_jxl_.
#ifndef CJXLSHIM_H
#define CJXLSHIM_H
#include <jxl/decode.h>
#include <jxl/encode.h>

#define WI_JXL_FUNCTIONS(X) \
    X(JxlColorEncodingSetToSRGB) \
    X(JxlDecoderCreate) \
    X(JxlDecoderDestroy) \
    X(JxlDecoderFlushImage) \
    X(JxlDecoderGetColorAsICCProfile) \
    X(JxlDecoderGetBasicInfo) \
    X(JxlDecoderGetFrameHeader) \
    X(JxlDecoderGetICCProfileSize) \
    X(JxlDecoderImageOutBufferSize) \
    X(JxlDecoderProcessInput) \
    X(JxlDecoderReleaseInput) \
    X(JxlDecoderSetImageOutBuffer) \
    X(JxlDecoderSetInput) \
    X(JxlDecoderSetKeepOrientation) \
    X(JxlDecoderSetProgressiveDetail) \
    X(JxlDecoderSetUnpremultiplyAlpha) \
    X(JxlDecoderSkipFrames) \
    X(JxlDecoderSubscribeEvents) \
    X(JxlEncoderAddImageFrame) \
    X(JxlEncoderCloseInput) \
    X(JxlEncoderCreate) \
    X(JxlEncoderDestroy) \
    X(JxlEncoderFrameSettingsCreate) \
    X(JxlEncoderFrameSettingsSetOption) \
    X(JxlEncoderGetError) \
    X(JxlEncoderInitBasicInfo) \
    X(JxlEncoderInitFrameHeader) \
    X(JxlEncoderProcessOutput) \
    X(JxlEncoderSetBasicInfo) \
    X(JxlEncoderSetColorEncoding) \
    X(JxlEncoderSetFrameDistance) \
    X(JxlEncoderSetFrameHeader) \
    X(JxlEncoderSetFrameLossless)

#define WI_JXL_FIELD(name) __typeof__(name) *_Nonnull name;
/// libjxl's functions, bound by wi_jxl_bind.
typedef struct { WI_JXL_FUNCTIONS(WI_JXL_FIELD) } wi_jxl_functions;
#undef WI_JXL_FIELD

/// Looks every function up in `handle` (dlopen of libjxl.so.0.7); returns the first name it cannot find, or NULL
/// when `functions` is complete.
const char *_Nullable wi_jxl_bind(void *_Nonnull handle, wi_jxl_functions *_Nonnull functions);

#endif

// CLCMSShim: colour conversion of whole pixel buffers to sRGB with Little CMS 2, for WIColor.
//
// Why this exists: lcms's pixel formats are macros and its error handler is a C callback with a context; a transform
// here opens the source profile (an ICC profile's bytes, or primaries and a tone curve) and makes a perceptual
// transform with black-point compensation to lcms's built-in sRGB profile in a context of its own, with messages
// caught while it is made (never printed, never through lcms's process-wide handler); it then runs over whole images. Every lcms call goes through a table bound with
// dlsym (functions.h), so liblcms2 is loaded only when a process first converts. All symbols are prefixed wi_lcms_.
#ifndef CLCMSSHIM_H
#define CLCMSSHIM_H
#include <stddef.h>
#include <stdint.h>

typedef enum {
    WI_LCMS_OK = 0,
    WI_LCMS_BAD_PROFILE = 1,    // lcms could not read the profile or make a transform from it; see the message
    WI_LCMS_UNSUPPORTED = 2,    // the profile's colour space does not describe these samples (e.g. CMYK for RGB)
    WI_LCMS_OUT_OF_MEMORY = 3,
} wi_lcms_status;

typedef enum {
    WI_LCMS_RGBA8 = 0,           // R, G, B, A bytes (R = G = B for grey sources)
    WI_LCMS_RGBA16 = 1,          // host-endian 16-bit R, G, B, A
    WI_LCMS_CMYK8 = 2,           // C, M, Y, K bytes as stored (0 = no ink)
    WI_LCMS_CMYK8_INVERTED = 3,  // C, M, Y, K bytes inverted, as Adobe's JPEGs store them (255 = no ink)
} wi_lcms_layout;

/// An RGB colour space without an ICC profile: CIE xy chromaticities and an lcms parametric tone curve
/// (type 1: Y = X^g, params[0] = g; type 4: IEC 61966 / BT.709 form, params g, a, b, c, d).
typedef struct {
    double white_x, white_y;
    double red_x, red_y, green_x, green_y, blue_x, blue_y;
    int curve_type;
    double curve[5];
} wi_lcms_rgb_space;

/// Binds lcms's functions from `handle` (dlopen'd liblcms2); with `install`, makes them the ones the shim calls.
/// Returns the first name it cannot find, or NULL.
const char *wi_lcms_bind(void *handle, int install);

/// The loaded library's version (2140 for 2.14). Only after wi_lcms_bind(handle, 1).
int wi_lcms_version(void);

/// A transform from a source colour space to sRGB, made once and run over any number of images, from any number of
/// threads at once (made with cmsFLAGS_NOCACHE: lcms keeps no per-transform pixel cache to race on).
typedef struct wi_lcms_transform wi_lcms_transform;

/// A transform from the ICC profile of `icc_size` bytes at `icc` (or, when `icc` is NULL, the space `rgb`) for
/// samples laid out as `in_layout`, to sRGB RGBA rows (16-bit host-endian when `out16`, else 8-bit): perceptual
/// intent with black-point compensation. NULL on failure, with `status` and lcms's reason in `message`.
wi_lcms_transform *wi_lcms_transform_create(const void *icc, size_t icc_size, const wi_lcms_rgb_space *rgb,
                                            wi_lcms_layout in_layout, int out16, wi_lcms_status *status,
                                            char *message, size_t message_size);
/// Converts `width` x `height` pixels at `in` (`in_stride` bytes apart) into `out` (`out_stride` bytes apart).
/// Alpha is carried over (made opaque for CMYK).
void wi_lcms_transform_apply(const wi_lcms_transform *transform, const void *in, size_t in_stride, void *out,
                             size_t out_stride, uint32_t width, uint32_t height);
void wi_lcms_transform_destroy(wi_lcms_transform *transform);
#endif

// Conversion to sRGB with Little CMS 2 (see CLCMSShim.h).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lcms2.h>
#include "CLCMSShim.h"
#include "functions.h"

typedef struct {
    char *text;
    size_t size;
} wi_lcms_messages;

// lcms's error handler for this call's context: keeps the first message.
static void wi_lcms_on_error(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)code;
    wi_lcms_messages *messages = cmsGetContextUserData(context);
    if (messages == NULL || messages->size == 0 || messages->text[0] != 0) return;
    snprintf(messages->text, messages->size, "%s", text ? text : "unknown lcms error");
}

static void wi_lcms_set(wi_lcms_messages *messages, const char *text) {
    if (messages->size > 0 && messages->text[0] == 0) snprintf(messages->text, messages->size, "%s", text);
}

int wi_lcms_version(void) { return cmsGetEncodedCMMversion(); }

static cmsHPROFILE wi_lcms_open_rgb_space(cmsContext context, const wi_lcms_rgb_space *rgb) {
    cmsCIExyY white = {rgb->white_x, rgb->white_y, 1.0};
    cmsCIExyYTRIPLE primaries = {
        {rgb->red_x, rgb->red_y, 1.0}, {rgb->green_x, rgb->green_y, 1.0}, {rgb->blue_x, rgb->blue_y, 1.0}};
    cmsToneCurve *curve = cmsBuildParametricToneCurve(context, rgb->curve_type, rgb->curve);
    if (curve == NULL) return NULL;
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = cmsCreateRGBProfileTHR(context, &white, &primaries, curves);
    cmsFreeToneCurve(curve);
    return profile;
}

// The lcms formats of the source samples for a profile of colour space `space`, or 0 when they do not match.
static cmsUInt32Number wi_lcms_input_format(cmsColorSpaceSignature space, wi_lcms_layout layout) {
    int bytes = layout == WI_LCMS_RGBA16 ? 2 : 1;
    switch (space) {
    case cmsSigRgbData:
        if (layout == WI_LCMS_RGBA8) return TYPE_RGBA_8;
        if (layout == WI_LCMS_RGBA16) return TYPE_RGBA_16;
        return 0;
    case cmsSigGrayData:
        // Grey samples were expanded to R = G = B by the coder: read R, skip G, B and A.
        if (layout == WI_LCMS_RGBA8 || layout == WI_LCMS_RGBA16)
            return COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | BYTES_SH(bytes) | EXTRA_SH(3);
        return 0;
    case cmsSigCmykData:
        if (layout == WI_LCMS_CMYK8) return TYPE_CMYK_8;
        if (layout == WI_LCMS_CMYK8_INVERTED) return TYPE_CMYK_8_REV;
        return 0;
    default:
        return 0;
    }
}

// Alpha for the rows lcms did not carry it for (grey sources: extra channel counts differ; CMYK: none).
static void wi_lcms_fill_alpha(wi_lcms_layout in_layout, const uint8_t *in, size_t in_stride, int out16,
                               uint8_t *out, size_t out_stride, uint32_t width, uint32_t height) {
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *source = in + (size_t)y * in_stride;
        uint8_t *row = out + (size_t)y * out_stride;
        for (uint32_t x = 0; x < width; x++) {
            uint32_t alpha;  // 16-bit
            if (in_layout == WI_LCMS_RGBA8) {
                alpha = source[(size_t)x * 4 + 3] * 257u;
            } else if (in_layout == WI_LCMS_RGBA16) {
                uint16_t value;
                memcpy(&value, source + (size_t)x * 8 + 6, 2);
                alpha = value;
            } else {
                alpha = 65535;
            }
            if (out16) {
                uint16_t value = (uint16_t)alpha;
                memcpy(row + (size_t)x * 8 + 6, &value, 2);
            } else {
                // lcms's own 16 to 8 bits rounding (FROM_16_TO_8).
                row[(size_t)x * 4 + 3] = (uint8_t)(((alpha * 65281u + 8388608u) >> 24) & 0xFFu);
            }
        }
    }
}

struct wi_lcms_transform {
    cmsContext context;
    cmsHTRANSFORM transform;
    wi_lcms_layout layout;
    int out16;
    int carries_alpha;
};

wi_lcms_transform *wi_lcms_transform_create(const void *icc, size_t icc_size, const wi_lcms_rgb_space *rgb,
                                            wi_lcms_layout in_layout, int out16, wi_lcms_status *status,
                                            char *message, size_t message_size) {
    if (message_size > 0) message[0] = 0;
    wi_lcms_messages messages = {message, message_size};
    *status = WI_LCMS_OK;
    if (icc != NULL && (icc_size == 0 || icc_size > 0x7FFFFFFFu)) {
        wi_lcms_set(&messages, "the ICC profile's size is out of range");
        *status = WI_LCMS_BAD_PROFILE;
        return NULL;
    }
    wi_lcms_transform *result = calloc(1, sizeof *result);
    cmsContext context = result ? cmsCreateContext(NULL, &messages) : NULL;
    if (context == NULL) {
        free(result);
        *status = WI_LCMS_OUT_OF_MEMORY;
        return NULL;
    }
    cmsSetLogErrorHandlerTHR(context, wi_lcms_on_error);
    cmsHPROFILE source = icc ? cmsOpenProfileFromMemTHR(context, icc, (cmsUInt32Number)icc_size)
                             : (rgb ? wi_lcms_open_rgb_space(context, rgb) : NULL);
    cmsHPROFILE srgb = NULL;
    cmsHTRANSFORM transform = NULL;
    cmsUInt32Number input = 0;
    if (source == NULL) {
        wi_lcms_set(&messages, "lcms cannot read the source profile");
        *status = WI_LCMS_BAD_PROFILE;
    } else if ((input = wi_lcms_input_format(cmsGetColorSpace(source), in_layout)) == 0) {
        wi_lcms_set(&messages, "the profile's colour space does not describe the image's samples");
        *status = WI_LCMS_UNSUPPORTED;
    } else if ((srgb = cmsCreate_sRGBProfileTHR(context)) == NULL) {
        *status = WI_LCMS_OUT_OF_MEMORY;
    } else {
        result->carries_alpha = T_COLORSPACE(input) == PT_RGB;
        cmsUInt32Number output = out16 ? TYPE_RGBA_16 : TYPE_RGBA_8;
        cmsUInt32Number flags = cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_NOCACHE
                                | (result->carries_alpha ? cmsFLAGS_COPY_ALPHA : 0);
        transform = cmsCreateTransformTHR(context, source, input, srgb, output, INTENT_PERCEPTUAL, flags);
        if (transform == NULL) {
            wi_lcms_set(&messages, "lcms cannot make a transform from the profile");
            *status = WI_LCMS_BAD_PROFILE;
        }
    }
    if (srgb) cmsCloseProfile(srgb);
    if (source) cmsCloseProfile(source);
    // The messages live on this call's stack: later errors go to lcms's default handler (which drops them).
    cmsSetLogErrorHandlerTHR(context, NULL);
    if (transform == NULL) {
        cmsDeleteContext(context);
        free(result);
        return NULL;
    }
    result->context = context;
    result->transform = transform;
    result->layout = in_layout;
    result->out16 = out16;
    return result;
}

void wi_lcms_transform_apply(const wi_lcms_transform *t, const void *in, size_t in_stride, void *out,
                             size_t out_stride, uint32_t width, uint32_t height) {
    cmsDoTransformLineStride(t->transform, in, out, width, height, (cmsUInt32Number)in_stride,
                             (cmsUInt32Number)out_stride, 0, 0);
    if (!t->carries_alpha) wi_lcms_fill_alpha(t->layout, in, in_stride, t->out16, out, out_stride, width, height);
}

void wi_lcms_transform_destroy(wi_lcms_transform *t) {
    if (t == NULL) return;
    cmsDeleteTransform(t->transform);
    cmsDeleteContext(t->context);
    free(t);
}

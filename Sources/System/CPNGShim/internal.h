// CPNGShim's private declarations: the decoder's state, shared by shim.c (libpng's progressive reader) and
// image_data_decode.c (the whole-buffer path), and the image data compressor of image_data_encode.c.
// Swift sees wi_png_decoder as an opaque pointer and none of this file.
#ifndef CPNGSHIM_INTERNAL_H
#define CPNGSHIM_INTERNAL_H
#include "CPNGShim.h"

#include <png.h>

/// The file's colour tables as libpng's expansion applies them, captured before its transformations are set up (they
/// clear tRNS from the info struct).
typedef struct {
    uint8_t palette[256][4];   // RGBA per index: zeros past PLTE's entries, alpha 255 past tRNS's
    int keyed;                 // grey or RGB with a tRNS colour
    uint16_t key[3];           // that colour as the file stores it (grey in key[0])
} wi_png_colors;

struct wi_png_decoder {
    png_structp png;
    png_infop info;
    int keep_16;
    uint64_t max_pixels;
    wi_png_status failure;       // status to report when libpng longjmps (set before png_error by our checks)
    int failed;
    int has_header;
    int complete;
    uint64_t rows_delivered;
    int inflated_whole;          // the image data went through image_data.c, not libpng's rows
    wi_png_header header;
    uint8_t *pixels;
    uint8_t *icc;
    size_t icc_size;
    uint8_t *exif;
    size_t exif_size;
    wi_png_color color;         // sRGB, gAMA, cHRM and cICP as read so far
    char message[256];
    wi_png_colors colors;
    int (*should_stop)(void);
};

/// Fills decoder->colors from the PLTE and tRNS libpng has read (call before png_read_update_info).
void wi_png_capture_colors(wi_png_decoder *decoder);

/// Filters rows (per row the filter with the smallest sum of absolute differences, libpng's heuristic) and deflates
/// them with libdeflate at `level` (0-12) into one zlib stream. Rows hold `channels` samples of `bit_depth` (8, or
/// 16 as host-endian values) per pixel. Returns the malloc()ed stream (free it) and its size in *size, or NULL when
/// out of memory.
uint8_t *wi_png_deflate_rows(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                             unsigned channels, unsigned bit_depth, int level, size_t *size);

#endif

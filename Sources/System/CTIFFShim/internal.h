// Shared between the reader, the row unpacker and the writer of CTIFFShim.
#ifndef WI_TIFF_INTERNAL_H
#define WI_TIFF_INTERNAL_H
#include <stdarg.h>
#include <tiffio.h>
#include "CTIFFShim.h"
#include "functions.h"

/// What libtiff said on one handle: the first error is kept (later ones are usually consequences), warnings counted.
typedef struct {
    char message[512];
    int warnings;
} wi_tiff_messages;

/// Sets the per-handle handlers on `options`; `messages` must outlive the TIFF handle.
void wi_tiff_messages_install(TIFFOpenOptions *options, wi_tiff_messages *messages);
/// Records a message of our own (when libtiff failed without saying why).
void wi_tiff_messages_set(wi_tiff_messages *messages, const char *text);

struct wi_tiff_reader {
    const uint8_t *data;
    size_t size;
    uint64_t position;
    uint8_t *owned;             // the copy of the bytes, when asked for
    int64_t max_single_alloc;
    TIFF *tif;
    wi_tiff_messages messages;

    // The current page.
    wi_tiff_page page;
    int output16;               // rows are 16-bit
    int unpremultiply;          // 8-bit associated alpha is divided out while unpacking
    int incomplete;             // the data ran short; later rows are unpacked from zero samples
    uint16_t sample_format;
    uint32_t rows_per_strip;
    uint32_t tile_width;
    int color_samples;          // 1 grey/palette, 3 RGB, 4 CMYK
    int alpha_sample;           // index of the alpha sample, -1 when none
    int invert;                 // MinIsWhite
    int cmyk;
    int lab;                    // 0, or the Photometric of CIE L*a*b* samples (CIELAB 8: a*, b* signed; ICCLAB 9)
    uint16_t value_bits;        // the depth samples are reduced from: bits_per_sample, 16 for 32-bit integers, 8
                                // for floating point (see wi_sample)
    uint16_t *colormap[3];      // palette: libtiff-owned, 1 << bits entries each
    uint8_t *scratch;           // raw rows: per used plane, band_height rows of `row_bytes`
    size_t scratch_size;
    uint8_t *tile;              // one decoded tile
    size_t tile_size;
    size_t row_bytes;           // bytes of one raw row (all samples when contiguous, one plane when separate)
    TIFFRGBAImage rgba;         // the fallback path's state
    int rgba_started;
};

/// Unpacks `rows` raw rows of the current page into RGBA rows (see wi_tiff_reader_read_band).
void wi_tiff_unpack_rows(const wi_tiff_reader *reader, const uint8_t *const *planes, uint32_t rows, uint8_t *out,
                         size_t stride);

#endif

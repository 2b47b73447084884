// CPNGShim: every call into libpng (and the PNG image data through libdeflate), in C.
//
// Why this exists: libpng reports errors by longjmp()ing to a setjmp() point, and Swift can neither call setjmp
// nor survive a longjmp across its frames. Each function here sets its own jump point, runs libpng, and turns a
// longjmp into a status code plus libpng's message. All symbols are prefixed wi_png_.
#ifndef CPNGSHIM_H
#define CPNGSHIM_H
#include <stddef.h>
#include <stdint.h>

typedef enum {
    WI_PNG_OK = 0,
    WI_PNG_ERROR = 1,          // libpng rejected the data; see wi_png_decoder_message
    WI_PNG_TOO_LARGE = 2,      // width x height over the pixel limit (checked before allocating)
    WI_PNG_OUT_OF_MEMORY = 3,
    WI_PNG_CANCELLED = 4,      // the stop callback said so (wi_png_decoder_set_stop)
} wi_png_status;

typedef struct wi_png_decoder wi_png_decoder;

typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;             // of the file: 1, 2, 4, 8 or 16
    int color_type;            // PNG_COLOR_TYPE_*
    int interlaced;            // Adam7
    int output_16;             // output is RGBA16 (host-endian) instead of RGBA8
    size_t stride;             // bytes per output row
} wi_png_header;

/// A progressive (push) decoder to RGBA8 (or RGBA16 when keep_16 and the file is 16-bit), straight alpha.
/// max_pixels: width*height above this fails with WI_PNG_TOO_LARGE before the pixel buffer is allocated.
wi_png_decoder *wi_png_decoder_create(int keep_16, uint64_t max_pixels);

/// Makes the decoder ask `should_stop` every 16 rows libpng delivers and every 64 rows the whole-buffer path
/// unfilters; a nonzero answer fails the decode with WI_PNG_CANCELLED (a cancelled request's large PNG stops
/// within a few rows).
void wi_png_decoder_set_stop(wi_png_decoder *decoder, int (*should_stop)(void));
void wi_png_decoder_destroy(wi_png_decoder *decoder);

/// Feeds the next bytes. Returns WI_PNG_OK or a failure, which is final for this decoder.
wi_png_status wi_png_decoder_feed(wi_png_decoder *decoder, const uint8_t *data, size_t size);

/// Decodes a whole PNG held in memory (a one-shot decode; call once, on a new decoder). With whole_buffer set,
/// libpng reads the chunks before the image data and the image data of non-interlaced 8-bit images (palette and
/// grey also at 1-4 bits) is inflated with libdeflate and unfiltered in one pass (image_data_decode.c); any other
/// image, and any irregularity in the image data or the chunks after it, continues in libpng from the first IDAT, so
/// the outcome (pixels, metadata, error) is the same as feeding the whole buffer. whole_buffer 0: only libpng.
wi_png_status wi_png_decoder_decode(wi_png_decoder *decoder, const uint8_t *data, size_t size, int whole_buffer);
/// Non-zero when wi_png_decoder_decode finished the image data itself rather than handing it to libpng.
int wi_png_decoder_inflated_whole(const wi_png_decoder *decoder);

/// Non-zero once the header is read and the (zero-filled) pixel buffer exists.
int wi_png_decoder_has_header(const wi_png_decoder *decoder);
const wi_png_header *wi_png_decoder_header(const wi_png_decoder *decoder);
/// Non-zero once IEND is read: every row of every pass is in the buffer.
int wi_png_decoder_is_complete(const wi_png_decoder *decoder);
/// How many row callbacks delivered pixels so far (grows as data arrives; all passes counted).
uint64_t wi_png_decoder_rows_delivered(const wi_png_decoder *decoder);
/// The pixel buffer (stride * height bytes), or NULL before the header.
const uint8_t *wi_png_decoder_pixels(const wi_png_decoder *decoder);
/// Hands the pixel buffer to the caller, who frees it with free(); the decoder forgets it.
uint8_t *wi_png_decoder_take_pixels(wi_png_decoder *decoder);
/// libpng's message for the failure.
const char *wi_png_decoder_message(const wi_png_decoder *decoder);
/// The iCCP profile (decompressed) and eXIf block, when present; NULL and 0 otherwise. Valid until destroy.
const uint8_t *wi_png_decoder_icc(const wi_png_decoder *decoder, size_t *size);
const uint8_t *wi_png_decoder_exif(const wi_png_decoder *decoder, size_t *size);

/// The colour chunks other than iCCP, each with a flag saying whether the file has it (and libpng found it valid).
typedef struct {
    int has_srgb;
    int has_gama;
    double gamma;               // the file gamma (0.45455 for a 2.2 display)
    int has_chrm;
    double white_x, white_y, red_x, red_y, green_x, green_y, blue_x, blue_y;
    int has_cicp;
    uint8_t cicp[4];            // primaries, transfer, matrix, full range
} wi_png_color;
/// The sRGB, gAMA, cHRM and cICP chunks read so far.
wi_png_color wi_png_decoder_color(const wi_png_decoder *decoder);

typedef enum {
    WI_PNG_LAYOUT_GRAY = 0,
    WI_PNG_LAYOUT_GRAY_ALPHA = 1,
    WI_PNG_LAYOUT_RGB = 2,
    WI_PNG_LAYOUT_RGBA = 3,
} wi_png_layout;

/// Encodes rows already in `layout` at `bit_depth` (8, or 16 as host-endian samples) into a PNG: libpng writes the
/// header and metadata chunks, libdeflate the image data. compression_level: libdeflate's, 0 (stored) to 12. On success *out holds malloc()ed bytes (free them) and *out_size their count.
/// On failure returns the status and copies libpng's message into message (size message_capacity).
wi_png_status wi_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                            wi_png_layout layout, int bit_depth, int compression_level,
                            const uint8_t *icc, size_t icc_size, const uint8_t *exif, size_t exif_size,
                            uint8_t **out, size_t *out_size, char *message, size_t message_capacity);

/// libpng's run-time version string ("1.6.39").
const char *wi_png_library_version(void);

#endif

// CJPEGShim: every call into libjpeg(-turbo) that can fail, in C.
//
// Why this exists: libjpeg reports errors through error_exit(), whose default calls exit(), and the only way back
// from a custom one is longjmp() to a setjmp() point. Swift can neither call setjmp nor survive a longjmp across its
// frames. Each function here sets its own jump point, runs libjpeg, and turns a longjmp into a status code plus
// libjpeg's message. Warnings are counted, never printed. All symbols are prefixed wi_jpeg_.
#ifndef CJPEGSHIM_H
#define CJPEGSHIM_H
#include <stddef.h>
#include <stdint.h>

typedef enum {
    WI_JPEG_OK = 0,
    WI_JPEG_ERROR = 1,          // libjpeg rejected the data; see wi_jpeg_decoder_message
    WI_JPEG_OUT_OF_MEMORY = 2,
    WI_JPEG_CANCELLED = 3,      // the stop callback said so (wi_jpeg_decoder_set_stop)
} wi_jpeg_status;

typedef enum {
    WI_JPEG_COLOR_OTHER = 0,
    WI_JPEG_COLOR_GRAY = 1,
    WI_JPEG_COLOR_RGB = 2,
    WI_JPEG_COLOR_YCBCR = 3,
    WI_JPEG_COLOR_CMYK = 4,
    WI_JPEG_COLOR_YCCK = 5,
} wi_jpeg_color;

/// What the file's header says (valid once wi_jpeg_decoder_has_header is non-zero).
typedef struct {
    uint32_t width;             // stored size, before any scaling or orientation
    uint32_t height;
    int components;
    wi_jpeg_color color;        // the file's colour space as libjpeg judged it (JFIF / Adobe markers)
    int progressive;            // SOF2 (or SOF10)
    int multiple_scans;         // progressive or non-interleaved: decoded in buffered-image mode
    int arithmetic;             // arithmetic-coded entropy (SOF9/SOF10)
    int data_precision;         // 8 (libjpeg-turbo 2.1 refuses 12 in jpeg_read_header)
    int saw_adobe;              // APP14 Adobe marker present
    int adobe_transform;        // its transform flag (0 none / CMYK, 1 YCbCr, 2 YCCK)
    uint32_t output_width;      // after wi_jpeg_decoder_start: the DCT-scaled output size
    uint32_t output_height;
    size_t stride;              // bytes per output row (RGBA8)
} wi_jpeg_info;

typedef struct wi_jpeg_decoder wi_jpeg_decoder;

/// A decoder fed by wi_jpeg_decoder_feed as data arrives (libjpeg's suspending-source protocol), which stops after
/// the header so the caller can choose the scale and check the pixel limit before anything large is allocated.
wi_jpeg_decoder *wi_jpeg_decoder_create(void);

/// Makes libjpeg's progress monitor (called for every scanline read and every row of coefficients absorbed, a
/// few microseconds apart) ask `should_stop`; a nonzero answer fails the decode with WI_JPEG_CANCELLED, so that a
/// cancelled request's progressive file of a thousand scans stops within one row of work.
void wi_jpeg_decoder_set_stop(wi_jpeg_decoder *d, int (*should_stop)(void));
void wi_jpeg_decoder_destroy(wi_jpeg_decoder *decoder);

/// Appends bytes (copied) and decodes as far as they allow. Failures are final for this decoder.
wi_jpeg_status wi_jpeg_decoder_feed(wi_jpeg_decoder *decoder, const uint8_t *data, size_t size);
/// No more bytes will come: libjpeg pads a truncated file (with a warning) and the image completes, or fails.
wi_jpeg_status wi_jpeg_decoder_end_of_data(wi_jpeg_decoder *decoder);

/// One-shot decode of bytes read in place (not copied), as if they were fed and followed by end_of_data: reads the
/// header. The caller keeps the bytes valid and unchanged until wi_jpeg_decoder_release_data, so it calls
/// wi_jpeg_decoder_start in between; the output buffer is then not zero-filled (a complete decode writes every row).
/// Only on a fresh decoder; feed and end_of_data do nothing afterwards.
wi_jpeg_status wi_jpeg_decoder_read_in_place(wi_jpeg_decoder *decoder, const uint8_t *data, size_t size);
/// The lent bytes may go: the decoder forgets them (a later read, which a complete decode never makes, sees EOI).
void wi_jpeg_decoder_release_data(wi_jpeg_decoder *decoder);

/// Non-zero once the header (through the first SOS) is read; the decoder then waits for wi_jpeg_decoder_start.
int wi_jpeg_decoder_has_header(const wi_jpeg_decoder *decoder);
const wi_jpeg_info *wi_jpeg_decoder_info(const wi_jpeg_decoder *decoder);

/// Starts decompression at scale_num/8 (1...8) to RGBA8, allocates the output buffer of the scaled size
/// (zero-filled unless the bytes were read in place), and decodes whatever data is already there.
wi_jpeg_status wi_jpeg_decoder_start(wi_jpeg_decoder *decoder, int scale_num);
int wi_jpeg_decoder_is_started(const wi_jpeg_decoder *decoder);
/// Non-zero once the whole image is in the buffer (EOI reached, or padded after end_of_data).
int wi_jpeg_decoder_is_complete(const wi_jpeg_decoder *decoder);
/// Grows whenever more of the image can be shown: rows delivered (single scan) or scans completed (multi-scan; a
/// scan counts once the next one has begun, or at EOI). Arithmetic-coded files show nothing before end_of_data:
/// libjpeg's arithmetic decoder cannot suspend, so their data is decoded once it is all there.
uint64_t wi_jpeg_decoder_progress(const wi_jpeg_decoder *decoder);
/// Multi-scan files: draws the image as of the last completed scan into the buffer (a no-op otherwise).
wi_jpeg_status wi_jpeg_decoder_render(wi_jpeg_decoder *decoder);

/// The RGBA8 output (output_height * stride bytes), or NULL before start.
const uint8_t *wi_jpeg_decoder_pixels(const wi_jpeg_decoder *decoder);
/// Hands the output buffer to the caller, who frees it with free(); the decoder forgets it.
uint8_t *wi_jpeg_decoder_take_pixels(wi_jpeg_decoder *decoder);
/// With `keep` (before wi_jpeg_decoder_start), a CMYK or YCCK file's rows hold its C, M, Y, K samples as libjpeg
/// outputs them (inverted in Adobe's files) instead of RGBA, for a conversion with the file's ICC profile.
void wi_jpeg_decoder_keep_cmyk(wi_jpeg_decoder *decoder, int keep);
/// The naive conversion the decoder applies to CMYK rows (Pillow's formula), over `height` rows of kept samples.
void wi_jpeg_cmyk_rows_to_rgba(uint8_t *pixels, size_t stride, uint32_t width, uint32_t height);

/// Non-zero when the data ended (or a scan broke off) before the image was complete, so part of it is padding.
int wi_jpeg_decoder_is_truncated(const wi_jpeg_decoder *decoder);
/// libjpeg's message for the failure (or the first warning when there was no failure).
const char *wi_jpeg_decoder_message(const wi_jpeg_decoder *decoder);

/// The APP1 EXIF block (without the "Exif\0\0" prefix), the APP1 XMP packet and the ICC profile (APP2 chunks
/// joined), when present; NULL and 0 otherwise. Valid until destroy.
const uint8_t *wi_jpeg_decoder_exif(const wi_jpeg_decoder *decoder, size_t *size);
const uint8_t *wi_jpeg_decoder_xmp(const wi_jpeg_decoder *decoder, size_t *size);
const uint8_t *wi_jpeg_decoder_icc(const wi_jpeg_decoder *decoder, size_t *size);

/// How to encode.
typedef struct {
    int quality;                // 1...100 (libjpeg's scale)
    int progressive;            // write a progressive file (jpeg_simple_progression)
    int optimize_coding;        // optimized Huffman tables
    int chroma_444;             // no chroma subsampling (else 4:2:0)
    uint8_t background[3];      // RGB that pixels with alpha < 255 are composited onto
} wi_jpeg_encode_settings;

/// Encodes straight-alpha RGBA8 rows (alpha composited onto settings->background) as a JFIF/EXIF JPEG.
/// exif is written as APP1 with the "Exif\0\0" prefix added (skipped when over 65527 bytes); icc as APP2 chunks.
/// On success *out holds malloc()ed bytes (free them) and *out_size their count; on failure the status and
/// libjpeg's message in message (size message_capacity).
wi_jpeg_status wi_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                              const wi_jpeg_encode_settings *settings, const uint8_t *exif, size_t exif_size,
                              const uint8_t *icc, size_t icc_size, uint8_t **out, size_t *out_size, char *message,
                              size_t message_capacity);

#endif

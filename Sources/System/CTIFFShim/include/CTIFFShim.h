// CTIFFShim: libtiff over memory, with its messages caught per handle, for the TIFF coder.
//
// Why this exists: libtiff's tag access (TIFFGetField/TIFFSetField) is variadic, which Swift cannot call, and its
// message handlers receive a va_list to format. Everything else that needs C-level speed (unpacking 1-16-bit
// samples of every photometric into RGBA rows) lives here too, so the Swift side deals in whole rows only.
// Reading and writing go through TIFFClientOpenExt with procs over a memory block (never a file); errors and
// warnings go to per-handle handlers (TIFFOpenOptionsSetErrorHandlerExtR, libtiff >= 4.5) that keep the first error
// message on the handle, never to stderr and never through libtiff's process-wide handlers. All symbols are
// prefixed wi_tiff_.
#ifndef CTIFFSHIM_H
#define CTIFFSHIM_H
#include <stddef.h>
#include <stdint.h>

typedef struct wi_tiff_reader wi_tiff_reader;
typedef struct wi_tiff_writer wi_tiff_writer;

typedef enum {
    WI_TIFF_OK = 0,
    WI_TIFF_ERROR = 1,          // libtiff rejected the data; see wi_tiff_reader_message
    WI_TIFF_OUT_OF_MEMORY = 2,
    WI_TIFF_UNSUPPORTED = 3,    // a layout neither the direct path nor libtiff's RGBA interface decodes
} wi_tiff_status;

typedef enum {
    WI_TIFF_ALPHA_NONE = 0,
    WI_TIFF_ALPHA_STRAIGHT = 1,      // unassociated alpha: rows come out straight
    WI_TIFF_ALPHA_PREMULTIPLIED = 2, // associated alpha (or the RGBA interface's output): rows come out premultiplied
} wi_tiff_alpha;

/// One page (directory) as wi_tiff_reader_select_page found it.
typedef struct {
    uint32_t width;
    uint32_t height;
    uint16_t bits_per_sample;
    uint16_t samples_per_pixel;
    uint16_t photometric;
    uint16_t compression;
    uint16_t planar;            // 1 contiguous, 2 separate planes
    uint16_t orientation;       // the Orientation tag, 1-8 (1 when absent or invalid)
    int tiled;
    uint32_t band_height;       // rows per wi_tiff_reader_read_band call (strip or tile height, capped)
    uint32_t band_count;
    int direct;                 // 1: samples unpacked here (exact, 16-bit capable); 0: libtiff's RGBA interface
    int can_output16;           // the direct path has more than 8 bits per sample to give
    wi_tiff_alpha alpha;
} wi_tiff_page;

/// A reader over `size` bytes at `data`; with `copy` 0 the bytes must outlive the reader, else they are copied.
/// `max_single_alloc` caps any one allocation libtiff makes (0: libtiff's default). NULL only when out of memory.
wi_tiff_reader *wi_tiff_reader_create(const uint8_t *data, size_t size, int copy, int64_t max_single_alloc);
void wi_tiff_reader_destroy(wi_tiff_reader *reader);
/// Opens the file (reads the first directory).
wi_tiff_status wi_tiff_reader_open(wi_tiff_reader *reader);
/// The first error libtiff reported on this handle ("" when none).
const char *wi_tiff_reader_message(const wi_tiff_reader *reader);
/// How many warnings libtiff reported (never printed).
int wi_tiff_reader_warnings(const wi_tiff_reader *reader);
/// The number of pages in the main IFD chain (libtiff stops at loops).
int wi_tiff_reader_page_count(wi_tiff_reader *reader);
/// The stored size of page `index` without preparing to decode it (for the pixel limit); 0 when unreadable.
wi_tiff_status wi_tiff_reader_page_size(wi_tiff_reader *reader, int index, uint32_t *width, uint32_t *height);
/// Makes page `index` current and describes it; ask for 16-bit rows with `want16` (used only when can_output16).
/// With `want_straight`, 8-bit associated alpha is divided out here as Pillow does (255 * c / a, truncated; colour
/// kept where a is 0) and the page reports straight alpha; otherwise associated alpha stays premultiplied.
wi_tiff_status wi_tiff_reader_select_page(wi_tiff_reader *reader, int index, int want16, int want_straight,
                                          wi_tiff_page *page);
/// Whether the current page's data ran short: the rows from there on were decoded from zero samples (as Pillow pads
/// truncated files).
int wi_tiff_reader_page_incomplete(const wi_tiff_reader *reader);
/// Decodes band `band` (in order from 0: compressed strips decode forwards) of the current page into RGBA rows of
/// 8-bit (or, when selected with want16 and can_output16, host-endian 16-bit) samples, `stride` bytes apart.
/// `out` holds page.band_height rows (fewer for the last band).
wi_tiff_status wi_tiff_reader_read_band(wi_tiff_reader *reader, uint32_t band, void *out, size_t stride);
/// A tag's bytes (ICC 34675, XMP 700) of the current page, or NULL.
const void *wi_tiff_reader_blob(wi_tiff_reader *reader, uint32_t tag, uint32_t *size);

typedef enum {
    WI_TIFF_COMPRESSION_LZW = 5,
    WI_TIFF_COMPRESSION_DEFLATE = 8,
} wi_tiff_compression;

/// A writer into a growing memory block. NULL only when out of memory.
wi_tiff_writer *wi_tiff_writer_create(void);
void wi_tiff_writer_destroy(wi_tiff_writer *writer);
/// Writes one page of 8-bit rows: 4 channels (RGBA, unassociated alpha) or 3 (RGB, read from RGBA rows).
wi_tiff_status wi_tiff_writer_add_page(wi_tiff_writer *writer, const uint8_t *rgba, uint32_t width, uint32_t height,
                                       size_t stride, int with_alpha, wi_tiff_compression compression,
                                       uint16_t orientation, uint16_t page, uint16_t pages);
/// Closes the file; the bytes stay owned by the writer.
wi_tiff_status wi_tiff_writer_finish(wi_tiff_writer *writer, const uint8_t **data, size_t *size);
const char *wi_tiff_writer_message(const wi_tiff_writer *writer);

/// libtiff's version line ("LIBTIFF, Version 4.5.0 ...").
const char *wi_tiff_version(void);

/// Looks every libtiff function the shim calls up in `handle` (dlopen of libtiff.so.6); returns the first name it
/// cannot find, or NULL when all were found. With `install`, a complete set becomes the table every wi_tiff_ function
/// calls through (functions.h); none of them may be called before that.
const char *wi_tiff_bind(void *handle, int install);

#endif

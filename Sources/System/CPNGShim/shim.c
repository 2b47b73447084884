// See include/CPNGShim.h for why this file exists: libpng's longjmp error handling stays in C.
#include "CPNGShim.h"
#include "internal.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

static void wi_png_error_fn(png_structp png, png_const_charp text) {
    wi_png_decoder *d = png_get_error_ptr(png);
    if (d) {
        strncpy(d->message, text ? text : "unknown libpng error", sizeof d->message - 1);
        d->message[sizeof d->message - 1] = 0;
    }
    png_longjmp(png, 1);
}

// Warnings (bad ancillary chunks, extra data) are not errors and must not print to stderr.
static void wi_png_warning_fn(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void wi_png_copy_metadata(wi_png_decoder *d) {
    if (!d->icc) {
        png_charp name;
        int compression;
        png_bytep profile;
        png_uint_32 length;
        if (png_get_iCCP(d->png, d->info, &name, &compression, &profile, &length) == PNG_INFO_iCCP && length > 0) {
            d->icc = malloc(length);
            if (d->icc) {
                memcpy(d->icc, profile, length);
                d->icc_size = length;
            }
        }
    }
#ifdef PNG_eXIf_SUPPORTED
    if (!d->exif) {
        png_bytep exif;
        png_uint_32 length;
        if (png_get_eXIf_1(d->png, d->info, &length, &exif) == PNG_INFO_eXIf && length > 0) {
            d->exif = malloc(length);
            if (d->exif) {
                memcpy(d->exif, exif, length);
                d->exif_size = length;
            }
        }
    }
#endif
}

static double wi_png_fixed(const png_byte *bytes) { return png_get_uint_32(bytes) / 100000.0; }

// The colour chunks other than iCCP, read here as they are in the file: libpng's own gAMA/cHRM/sRGB state also holds
// what an iCCP profile or an sRGB chunk implies, which would pass for chunks the file does not have. cICP (PNG 3rd
// edition) is unknown to libpng 1.6.39 anyway. The first chunk of each kind counts; a malformed one is ignored.
static int wi_png_read_color_chunk(wi_png_color *c, png_unknown_chunkp chunk) {
    if (memcmp(chunk->name, "cICP", 4) == 0) {
        if (chunk->size == 4 && !c->has_cicp) {
            c->has_cicp = 1;
            memcpy(c->cicp, chunk->data, 4);
        }
    } else if (memcmp(chunk->name, "sRGB", 4) == 0) {
        if (chunk->size == 1) c->has_srgb = 1;
    } else if (memcmp(chunk->name, "gAMA", 4) == 0) {
        if (chunk->size == 4 && !c->has_gama && png_get_uint_32(chunk->data) > 0) {
            c->has_gama = 1;
            c->gamma = wi_png_fixed(chunk->data);
        }
    } else if (memcmp(chunk->name, "cHRM", 4) == 0) {
        if (chunk->size == 32 && !c->has_chrm) {
            const png_byte *b = chunk->data;
            c->has_chrm = 1;
            c->white_x = wi_png_fixed(b), c->white_y = wi_png_fixed(b + 4);
            c->red_x = wi_png_fixed(b + 8), c->red_y = wi_png_fixed(b + 12);
            c->green_x = wi_png_fixed(b + 16), c->green_y = wi_png_fixed(b + 20);
            c->blue_x = wi_png_fixed(b + 24), c->blue_y = wi_png_fixed(b + 28);
        }
    } else {
        return 0;
    }
    return 1;
}

// libpng 1.6.39's progressive reader has no eXIf handler (only the sequential reader has one) and passes the chunk
// on as unknown; catch it here so eXIf orientation works for incremental and one-shot decodes alike.
static int wi_png_user_chunk_callback(png_structp png, png_unknown_chunkp chunk) {
    wi_png_decoder *d = png_get_user_chunk_ptr(png);
    if (wi_png_read_color_chunk(&d->color, chunk)) return 1;
    if (memcmp(chunk->name, "eXIf", 4) != 0) return 0;  // not ours: libpng's default handling
    if (!d->exif && chunk->size > 0) {
        d->exif = malloc(chunk->size);
        if (d->exif) {
            memcpy(d->exif, chunk->data, chunk->size);
            d->exif_size = chunk->size;
        }
    }
    return 1;
}

static void wi_png_info_callback(png_structp png, png_infop info) {
    wi_png_decoder *d = png_get_progressive_ptr(png);
    png_uint_32 width, height;
    int bit_depth, color_type, interlace;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    if ((uint64_t)width * height > d->max_pixels) {
        d->failure = WI_PNG_TOO_LARGE;
        png_error(png, "image exceeds the pixel limit");
    }

    wi_png_capture_colors(d);
    int output_16 = bit_depth == 16 && d->keep_16;
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) {
        if (output_16) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            png_set_swap(png);
#endif
        } else {
            png_set_strip_16(png);
        }
    }
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_add_alpha(png, output_16 ? 0xFFFF : 0xFF, PNG_FILLER_AFTER);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);

    size_t stride = (size_t)width * (output_16 ? 8 : 4);
    if (png_get_rowbytes(png, info) != stride) {
        d->failure = WI_PNG_ERROR;
        png_error(png, "unexpected row size after transformations");
    }
    // One byte per row more than the pixels: room for the stored rows (filter byte + samples, at most 4 bytes per
    // pixel in the layouts it takes) at the buffer's end, where the whole-buffer path inflates them.
    d->pixels = calloc(1, (size_t)height * stride + height);
    if (!d->pixels) {
        d->failure = WI_PNG_OUT_OF_MEMORY;
        png_error(png, "cannot allocate the pixel buffer");
    }
    d->header = (wi_png_header){width, height, bit_depth, color_type, interlace != PNG_INTERLACE_NONE, output_16, stride};
    d->has_header = 1;
    wi_png_copy_metadata(d);
}

static void wi_png_row_callback(png_structp png, png_bytep row, png_uint_32 row_number, int pass) {
    (void)pass;
    wi_png_decoder *d = png_get_progressive_ptr(png);
    if (d->should_stop && (row_number & 15) == 0 && d->should_stop()) {
        d->failure = WI_PNG_CANCELLED;
        png_error(png, "the decode was cancelled");
    }
    if (!row || row_number >= d->header.height) return;
    png_progressive_combine_row(png, d->pixels + (size_t)row_number * d->header.stride, row);
    d->rows_delivered++;
}

static void wi_png_end_callback(png_structp png, png_infop info) {
    wi_png_decoder *d = png_get_progressive_ptr(png);
    (void)info;
    wi_png_copy_metadata(d);  // eXIf may follow the image data
    d->complete = 1;
}

wi_png_decoder *wi_png_decoder_create(int keep_16, uint64_t max_pixels) {
    wi_png_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->keep_16 = keep_16;
    d->max_pixels = max_pixels;
    d->failure = WI_PNG_ERROR;
    d->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, d, wi_png_error_fn, wi_png_warning_fn);
    if (!d->png) {
        free(d);
        return NULL;
    }
    d->info = png_create_info_struct(d->png);
    if (!d->info) {
        png_destroy_read_struct(&d->png, NULL, NULL);
        free(d);
        return NULL;
    }
    // The dimension limit is ours (pixel limit); libpng's 1,000,000-per-side default would refuse wide banners.
    png_set_user_limits(d->png, 0x7fffffff, 0x7fffffff);
    png_set_read_user_chunk_fn(d->png, d, wi_png_user_chunk_callback);
    // sRGB, gAMA and cHRM reach the callback as they are in the file (wi_png_read_color_chunk).
    static const png_byte color_chunks[] = "sRGB\0gAMA\0cHRM";
    png_set_keep_unknown_chunks(d->png, PNG_HANDLE_CHUNK_ALWAYS, color_chunks, 3);
    png_set_progressive_read_fn(d->png, d, wi_png_info_callback, wi_png_row_callback, wi_png_end_callback);
    return d;
}

void wi_png_decoder_set_stop(wi_png_decoder *d, int (*should_stop)(void)) { d->should_stop = should_stop; }

void wi_png_decoder_destroy(wi_png_decoder *d) {
    if (!d) return;
    png_destroy_read_struct(&d->png, &d->info, NULL);
    free(d->pixels);
    free(d->icc);
    free(d->exif);
    free(d);
}

wi_png_status wi_png_decoder_feed(wi_png_decoder *d, const uint8_t *data, size_t size) {
    if (d->failed) return d->failure;
    if (d->complete || size == 0) return WI_PNG_OK;
    if (setjmp(png_jmpbuf(d->png))) {
        d->failed = 1;
        return d->failure;
    }
    png_process_data(d->png, d->info, (png_bytep)data, size);
    return WI_PNG_OK;
}

int wi_png_decoder_has_header(const wi_png_decoder *d) { return d->has_header; }
const wi_png_header *wi_png_decoder_header(const wi_png_decoder *d) { return &d->header; }
int wi_png_decoder_is_complete(const wi_png_decoder *d) { return d->complete; }
uint64_t wi_png_decoder_rows_delivered(const wi_png_decoder *d) { return d->rows_delivered; }
const uint8_t *wi_png_decoder_pixels(const wi_png_decoder *d) { return d->pixels; }
const char *wi_png_decoder_message(const wi_png_decoder *d) { return d->message; }

uint8_t *wi_png_decoder_take_pixels(wi_png_decoder *d) {
    uint8_t *pixels = d->pixels;
    d->pixels = NULL;
    return pixels;
}

wi_png_color wi_png_decoder_color(const wi_png_decoder *d) { return d->color; }

const uint8_t *wi_png_decoder_icc(const wi_png_decoder *d, size_t *size) {
    *size = d->icc_size;
    return d->icc;
}

const uint8_t *wi_png_decoder_exif(const wi_png_decoder *d, size_t *size) {
    *size = d->exif_size;
    return d->exif;
}

// ---- Encoding ----

typedef struct {
    uint8_t *bytes;
    size_t size;
    size_t capacity;
    int failed;
} wi_png_sink;

static void wi_png_write_fn(png_structp png, png_bytep data, png_size_t length) {
    wi_png_sink *sink = png_get_io_ptr(png);
    if (sink->size + length > sink->capacity) {
        size_t capacity = sink->capacity ? sink->capacity : 4096;
        while (capacity < sink->size + length) capacity *= 2;
        uint8_t *grown = realloc(sink->bytes, capacity);
        if (!grown) {
            sink->failed = 1;
            png_error(png, "out of memory while writing");
        }
        sink->bytes = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->bytes + sink->size, data, length);
    sink->size += length;
}

static void wi_png_flush_fn(png_structp png) { (void)png; }

typedef struct {
    char *message;
    size_t capacity;
} wi_png_encode_error;

static void wi_png_encode_error_fn(png_structp png, png_const_charp text) {
    wi_png_encode_error *e = png_get_error_ptr(png);
    if (e && e->capacity) {
        strncpy(e->message, text ? text : "unknown libpng error", e->capacity - 1);
        e->message[e->capacity - 1] = 0;
    }
    png_longjmp(png, 1);
}

// IDAT chunks of at most 256 KiB: any reader streams them; one chunk per image would make some buffer it whole.
enum { WI_PNG_IDAT_PIECE = 256 * 1024 };

wi_png_status wi_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                            wi_png_layout layout, int bit_depth, int compression_level,
                            const uint8_t *icc, size_t icc_size, const uint8_t *exif, size_t exif_size,
                            uint8_t **out, size_t *out_size, char *message, size_t message_capacity) {
    static const int color_types[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                      PNG_COLOR_TYPE_RGB_ALPHA};
    wi_png_encode_error error = {message, message_capacity};
    // volatile: read after a longjmp back into this frame.
    wi_png_sink *volatile sink = calloc(1, sizeof(wi_png_sink));
    uint8_t *volatile image_data = NULL;
    png_structp png = NULL;
    png_infop info = NULL;
    *out = NULL;
    *out_size = 0;
    if (!sink) return WI_PNG_OUT_OF_MEMORY;
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &error, wi_png_encode_error_fn, wi_png_warning_fn);
    if (!png) {
        free(sink);
        return WI_PNG_OUT_OF_MEMORY;
    }
    info = png_create_info_struct(png);
    if (!info || setjmp(png_jmpbuf(png))) {
        wi_png_status status = sink->failed ? WI_PNG_OUT_OF_MEMORY : WI_PNG_ERROR;
        png_destroy_write_struct(&png, &info);
        free(sink->bytes);
        free(sink);
        free(image_data);
        return status;
    }
    png_set_write_fn(png, sink, wi_png_write_fn, wi_png_flush_fn);
    // A colour profile libpng dislikes (e.g. "known incorrect sRGB profile", common in camera and HEIF files) is a
    // benign error: let libpng warn and drop the chunk instead of failing the whole encode over metadata.
    png_set_benign_errors(png, 1);
    png_set_IHDR(png, info, width, height, bit_depth, color_types[layout], PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (icc && icc_size) png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, icc, (png_uint_32)icc_size);
#ifdef PNG_eXIf_SUPPORTED
    if (exif && exif_size) png_set_eXIf_1(png, info, (png_uint_32)exif_size, (png_bytep)exif);
#else
    (void)exif;
    (void)exif_size;
#endif
    // libpng writes the signature, IHDR, iCCP and eXIf; the image data is filtered and deflated by
    // wi_png_deflate_rows (libdeflate) and goes out as IDAT chunks through libpng's chunk writer.
    png_write_info(png, info);
    static const unsigned channels[] = {1, 2, 3, 4};
    size_t image_data_size = 0;
    image_data = wi_png_deflate_rows(pixels, width, height, stride, channels[layout], (unsigned)bit_depth,
                                     compression_level, &image_data_size);
    if (!image_data) {
        sink->failed = 1;
        png_error(png, "out of memory");
    }
    for (size_t offset = 0; offset < image_data_size; offset += WI_PNG_IDAT_PIECE) {
        size_t piece = image_data_size - offset < WI_PNG_IDAT_PIECE ? image_data_size - offset : WI_PNG_IDAT_PIECE;
        png_write_chunk(png, (png_const_bytep)"IDAT", image_data + offset, piece);
    }
    png_write_chunk(png, (png_const_bytep)"IEND", NULL, 0);
    png_destroy_write_struct(&png, &info);
    free(image_data);
    *out = sink->bytes;
    *out_size = sink->size;
    free(sink);
    return WI_PNG_OK;
}

const char *wi_png_library_version(void) { return png_get_libpng_ver(NULL); }

// The whole-buffer path of a one-shot decode (wi_png_decoder_decode): libpng's progressive reader still reads every
// chunk before the image data, so the signature and header checks, the pixel limit, PLTE/tRNS validation and the
// iCCP/eXIf metadata are exactly the incremental path's. From the first IDAT on, the common layouts (not interlaced;
// 8-bit grey, grey+alpha, RGB, RGBA; palette and grey at 1, 2, 4 or 8 bits) are finished here: IDAT CRCs checked,
// the concatenated zlib stream inflated in one call with libdeflate (2-3x zlib's speed on large images), rows
// unfiltered and expanded to RGBA8 straight into the decoder's pixel buffer, as libpng's transformations would.
//
// Only a flawless image takes this path. Anything libpng might treat differently (a bad CRC, a zlib stream with a
// small window, too much or too little data, a bad filter byte, a chunk out of place, an odd trailing chunk) hands
// the data from the first IDAT on to libpng, which then decodes (or rejects) it exactly as before.
#include "CPNGShim.h"
#include "internal.h"

#include <libdeflate.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

enum {
    WI_CHUNK_MAX = 0x7fffffff,            // PNG's chunk length limit
    WI_ANCILLARY_MAX = 8000000,           // libpng's PNG_USER_CHUNK_MALLOC_MAX: longer non-IDAT chunks are errors there
    WI_TRAILING_CHUNKS_MAX = 64,          // far below libpng's 1000-chunk cache limit, so its skipping never applies
};

static uint32_t wi_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static int wi_is_type(const uint8_t *chunk, const char *type) { return memcmp(chunk + 4, type, 4) == 0; }

// Letters only, as libpng's png_check_chunk_name demands.
static int wi_valid_type(const uint8_t *chunk) {
    for (int i = 4; i < 8; i++) {
        uint8_t c = chunk[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) return 0;
    }
    return 1;
}

// A chunk at `pos` whose length, type and CRC are sound; its total size (12 + length) or 0.
static size_t wi_sound_chunk(const uint8_t *data, size_t size, size_t pos) {
    if (size - pos < 12) return 0;
    uint32_t length = wi_be32(data + pos);
    if (length > WI_CHUNK_MAX || size - pos - 12 < length || !wi_valid_type(data + pos)) return 0;
    uint32_t crc = (uint32_t)libdeflate_crc32(0, data + pos + 4, (size_t)length + 4);
    if (crc != wi_be32(data + pos + 8 + length)) return 0;
    return (size_t)length + 12;
}

// The offset of the first IDAT chunk, or 0 when the chunks before it do not all lie inside the buffer.
static size_t wi_first_idat(const uint8_t *data, size_t size) {
    static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    if (size < 8 || memcmp(data, signature, 8) != 0) return 0;
    size_t pos = 8;
    while (size - pos >= 8) {
        uint32_t length = wi_be32(data + pos);
        if (length > WI_CHUNK_MAX) return 0;
        if (wi_is_type(data + pos, "IDAT")) return pos;
        if (size - pos - 8 < (size_t)length + 4) return 0;
        pos += (size_t)length + 12;
    }
    return 0;
}

// Where the image data lies: the IDAT run and what follows it up to IEND.
typedef struct {
    size_t first;          // offset of the first IDAT chunk
    size_t chunks;         // IDAT chunks in the run
    size_t compressed;     // their data bytes together
    size_t exif;           // offset of the first non-empty eXIf chunk after the run, 0 when none
} wi_image_data;

// Checks the IDAT run at `first` and every chunk after it up to IEND; 0 when anything is off.
static int wi_locate(const uint8_t *data, size_t size, size_t first, size_t raw_size, wi_image_data *out) {
    *out = (wi_image_data){first, 0, 0, 0};
    size_t pos = first;
    size_t total;
    while (size - pos >= 8 && wi_is_type(data + pos, "IDAT")) {
        if (!(total = wi_sound_chunk(data, size, pos))) return 0;
        size_t length = total - 12;
        if (length == 0) return 0;
        // libpng refuses an IDAT chunk longer than both its chunk limit and the image's raw size (plus overhead).
        if (length > WI_ANCILLARY_MAX && length > raw_size) return 0;
        out->chunks++;
        out->compressed += length;
        pos += total;
    }
    for (int seen = 0; seen < WI_TRAILING_CHUNKS_MAX; seen++) {
        if (!(total = wi_sound_chunk(data, size, pos))) return 0;
        const uint8_t *chunk = data + pos;
        if (wi_is_type(chunk, "IEND")) return total == 12;
        if (chunk[4] >= 'A' && chunk[4] <= 'Z') return 0;       // critical (IDAT again, PLTE, unknown): libpng's call
        if (total - 12 > WI_ANCILLARY_MAX) return 0;
        if (wi_is_type(chunk, "eXIf") && total > 12 && out->exif == 0) out->exif = pos;
        pos += total;
    }
    return 0;
}

// The layout of one stored row and how it becomes RGBA8.
typedef struct {
    int color_type;
    unsigned bit_depth;
    unsigned channels;
    size_t row_bytes;      // without the filter byte
    unsigned bpp;          // filter distance in bytes (at least 1)
    int keyed;             // grey or RGB with a tRNS colour key
    uint16_t key[3];       // the key, as libpng compares it (masked to the bit depth)
    const uint8_t (*palette)[4];
} wi_layout;

void wi_png_capture_colors(wi_png_decoder *d) {
    wi_png_colors *colors = &d->colors;
    memset(colors, 0, sizeof *colors);
    png_bytep trans_alpha = NULL;
    int num_trans = 0;
    png_color_16p trans_color = NULL;
    int has_trns = png_get_tRNS(d->png, d->info, &trans_alpha, &num_trans, &trans_color) != 0;
    if (png_get_color_type(d->png, d->info) == PNG_COLOR_TYPE_PALETTE) {
        // libpng keeps a 256-entry palette, zeros past the file's entries; alpha 255 past tRNS's entries.
        png_colorp palette = NULL;
        int num_palette = 0;
        if (png_get_PLTE(d->png, d->info, &palette, &num_palette) == 0 || !palette) num_palette = 0;
        for (int i = 0; i < 256; i++) {
            if (i < num_palette) {
                colors->palette[i][0] = palette[i].red;
                colors->palette[i][1] = palette[i].green;
                colors->palette[i][2] = palette[i].blue;
            }
            colors->palette[i][3] = (has_trns && trans_alpha && i < num_trans) ? trans_alpha[i] : 255;
        }
    } else if (has_trns && trans_color) {
        colors->keyed = 1;
        colors->key[0] = png_get_color_type(d->png, d->info) == PNG_COLOR_TYPE_GRAY ? trans_color->gray : trans_color->red;
        colors->key[1] = trans_color->green;
        colors->key[2] = trans_color->blue;
    }
}

static int wi_make_layout(wi_png_decoder *d, wi_layout *l) {
    const wi_png_header *h = &d->header;
    memset(l, 0, sizeof *l);
    if (h->interlaced || h->output_16) return 0;
    l->color_type = h->color_type;
    l->bit_depth = (unsigned)h->bit_depth;
    switch (h->color_type) {
    case PNG_COLOR_TYPE_GRAY: l->channels = 1; break;
    case PNG_COLOR_TYPE_PALETTE: l->channels = 1; break;
    case PNG_COLOR_TYPE_GRAY_ALPHA: l->channels = 2; break;
    case PNG_COLOR_TYPE_RGB: l->channels = 3; break;
    case PNG_COLOR_TYPE_RGB_ALPHA: l->channels = 4; break;
    default: return 0;
    }
    int low_depth_allowed = h->color_type == PNG_COLOR_TYPE_GRAY || h->color_type == PNG_COLOR_TYPE_PALETTE;
    if (!(l->bit_depth == 8 || (low_depth_allowed && (l->bit_depth == 1 || l->bit_depth == 2 || l->bit_depth == 4))))
        return 0;
    l->row_bytes = ((size_t)h->width * l->channels * l->bit_depth + 7) / 8;
    l->bpp = l->bit_depth == 8 ? l->channels : 1;
    l->palette = d->colors.palette;

    if (h->color_type == PNG_COLOR_TYPE_GRAY || h->color_type == PNG_COLOR_TYPE_RGB) {
        // As libpng compares: the tRNS samples masked to the bit depth.
        unsigned mask = (1u << l->bit_depth) - 1;
        l->keyed = d->colors.keyed;
        for (int i = 0; i < 3; i++) l->key[i] = (uint16_t)(d->colors.key[i] & mask);
    }
    return 1;
}

static uint8_t wi_paeth(uint8_t a, uint8_t b, uint8_t c) {
    int p = (int)a + b - c;
    int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
}

// Reverses one row's filter from `src` into `cur`; `prior` is the previous unfiltered row (zeros for the first).
// 0 on a bad filter type.
static int wi_unfilter(const uint8_t *restrict src, const uint8_t *restrict prior, uint8_t *restrict cur, size_t n,
                       unsigned bpp, uint8_t type) {
    size_t i;
    size_t head = bpp < n ? bpp : n;
    switch (type) {
    case 0:
        memcpy(cur, src, n);
        return 1;
    case 1:
        for (i = 0; i < head; i++) cur[i] = src[i];
        for (; i < n; i++) cur[i] = (uint8_t)(src[i] + cur[i - bpp]);
        return 1;
    case 2:
        for (i = 0; i < n; i++) cur[i] = (uint8_t)(src[i] + prior[i]);
        return 1;
    case 3:
        for (i = 0; i < head; i++) cur[i] = (uint8_t)(src[i] + (prior[i] >> 1));
        for (; i < n; i++) cur[i] = (uint8_t)(src[i] + ((cur[i - bpp] + prior[i]) >> 1));
        return 1;
    case 4:
        for (i = 0; i < head; i++) cur[i] = (uint8_t)(src[i] + prior[i]);
        for (; i < n; i++) cur[i] = (uint8_t)(src[i] + wi_paeth(cur[i - bpp], prior[i], prior[i - bpp]));
        return 1;
    default:
        return 0;
    }
}

// The sample at `x` of a row packed at 1, 2 or 4 bits (most significant bits first).
static unsigned wi_packed(const uint8_t *row, uint32_t x, unsigned depth) {
    size_t bit = (size_t)x * depth;
    return (row[bit >> 3] >> (8 - depth - (bit & 7))) & ((1u << depth) - 1);
}

// One unfiltered row to RGBA8, as libpng's expand, tRNS-to-alpha, grey-to-RGB and filler transformations do.
static void wi_expand(const uint8_t *src, uint8_t *dst, uint32_t width, const wi_layout *l) {
    uint32_t x;
    switch (l->color_type) {
    case PNG_COLOR_TYPE_RGB_ALPHA:
        memcpy(dst, src, (size_t)width * 4);
        return;
    case PNG_COLOR_TYPE_RGB:
        if (l->keyed) {
            for (x = 0; x < width; x++, src += 3, dst += 4) {
                dst[0] = src[0];
                dst[1] = src[1];
                dst[2] = src[2];
                dst[3] = (src[0] == l->key[0] && src[1] == l->key[1] && src[2] == l->key[2]) ? 0 : 255;
            }
        } else {
            x = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            // Four bytes in, the fourth replaced by opaque alpha; the last pixel below, to stay inside the row.
            for (; x + 1 < width; x++, src += 3, dst += 4) {
                uint32_t v;
                memcpy(&v, src, 4);
                v |= 0xff000000u;
                memcpy(dst, &v, 4);
            }
#endif
            for (; x < width; x++, src += 3, dst += 4) {
                dst[0] = src[0];
                dst[1] = src[1];
                dst[2] = src[2];
                dst[3] = 255;
            }
        }
        return;
    case PNG_COLOR_TYPE_GRAY_ALPHA:
        for (x = 0; x < width; x++, src += 2, dst += 4) {
            dst[0] = dst[1] = dst[2] = src[0];
            dst[3] = src[1];
        }
        return;
    case PNG_COLOR_TYPE_GRAY: {
        static const uint8_t scale[9] = {0, 0xff, 0x55, 0, 0x11, 0, 0, 0, 1};
        for (x = 0; x < width; x++, dst += 4) {
            unsigned v = l->bit_depth == 8 ? src[x] : wi_packed(src, x, l->bit_depth);
            dst[0] = dst[1] = dst[2] = (uint8_t)(v * scale[l->bit_depth]);
            dst[3] = (l->keyed && v == l->key[0]) ? 0 : 255;
        }
        return;
    }
    case PNG_COLOR_TYPE_PALETTE:
        for (x = 0; x < width; x++, dst += 4) {
            unsigned index = l->bit_depth == 8 ? src[x] : wi_packed(src, x, l->bit_depth);
            memcpy(dst, l->palette[index], 4);
        }
        return;
    default:
        return;
    }
}

// Inflates, unfilters and expands the image data located by `where` into the decoder's pixel buffer. The stored
// rows are inflated into the buffer's end (shim.c allocates a byte per row more than the pixels, enough for every
// layout taken here); each row is unfiltered into a small side buffer and expanded to its place, which never
// reaches a stored row not yet read (an output row is at most one byte per row longer than a stored one). 0 leaves
// the data to libpng, with the pixel buffer zeroed again as libpng expects it.
static int wi_decode_image_data(wi_png_decoder *d, const uint8_t *data, const wi_image_data *where,
                                const wi_layout *l) {
    const wi_png_header *h = &d->header;
    size_t raw_size = (l->row_bytes + 1) * h->height;
    size_t capacity = (size_t)h->height * h->stride + h->height;
    if (raw_size > capacity || l->row_bytes == 0) return 0;
    uint8_t *raw = d->pixels + (capacity - raw_size);

    uint8_t *joined = NULL;
    const uint8_t *stream = data + where->first + 8;
    if (where->chunks > 1) {
        joined = malloc(where->compressed);
        if (!joined) return 0;
        size_t pos = where->first, filled = 0;
        for (size_t i = 0; i < where->chunks; i++) {
            uint32_t length = wi_be32(data + pos);
            memcpy(joined + filled, data + pos + 8, length);
            filled += length;
            pos += (size_t)length + 12;
        }
        stream = joined;
    }
    // Deflate (CMF method 8) with a window of at most 32 KiB. libpng's zlib holds a stream to the window it declares
    // and libdeflate never checks: a smaller window is taken only when the whole image fits in it (then no distance
    // can reach beyond it).
    unsigned window_bits = where->compressed >= 2 ? (unsigned)(stream[0] >> 4) + 8 : 0;
    if (where->compressed < 2 || (stream[0] & 0x0f) != 8 || window_bits > 15 ||
        (window_bits < 15 && raw_size > ((size_t)1 << window_bits))) {
        free(joined);
        return 0;
    }
    uint8_t *rows = calloc(2, l->row_bytes);      // the current and the previous unfiltered row
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    int ok = rows && inflater;
    int touched = 0;
    if (ok) {
        size_t used_in = 0, produced = 0;
        touched = 1;
        enum libdeflate_result result = libdeflate_zlib_decompress_ex(inflater, stream, where->compressed, raw,
                                                                      raw_size, &used_in, &produced);
        ok = result == LIBDEFLATE_SUCCESS && used_in == where->compressed && produced == raw_size;
    }
    if (ok) {
        uint8_t *cur = rows, *prior = rows + l->row_bytes;
        for (uint32_t y = 0; y < h->height && ok; y++) {
            // Cancelled: left to libpng, whose first row asks again and fails the decode.
            if (d->should_stop && (y & 63) == 0 && d->should_stop()) {
                ok = 0;
                break;
            }
            const uint8_t *stored = raw + (size_t)y * (l->row_bytes + 1);
            ok = wi_unfilter(stored + 1, prior, cur, l->row_bytes, l->bpp, stored[0]);
            if (ok) wi_expand(cur, d->pixels + (size_t)y * h->stride, h->width, l);
            uint8_t *swap = prior;
            prior = cur;
            cur = swap;
        }
    }
    if (!ok && touched) memset(d->pixels, 0, capacity);
    if (inflater) libdeflate_free_decompressor(inflater);
    free(rows);
    free(joined);
    return ok;
}

wi_png_status wi_png_decoder_decode(wi_png_decoder *d, const uint8_t *data, size_t size, int whole_buffer) {
    size_t first = whole_buffer && data ? wi_first_idat(data, size) : 0;
    if (first == 0 || d->failed || d->has_header) return wi_png_decoder_feed(d, data, size);
    // libpng reads everything before the image data and stops after the first IDAT's header (its info callback,
    // which allocates the pixel buffer, runs there).
    wi_png_status status = wi_png_decoder_feed(d, data, first + 8);
    if (status != WI_PNG_OK) return status;
    wi_layout layout;
    wi_image_data where;
    if (d->has_header && !d->complete && d->pixels && wi_make_layout(d, &layout)) {
        size_t raw_size = (layout.row_bytes + 1) * d->header.height;
        if (wi_locate(data, size, first, raw_size, &where) && wi_decode_image_data(d, data, &where, &layout)) {
            if (where.exif && !d->exif) {
                // As the progressive reader's unknown-chunk callback keeps a trailing eXIf: the raw chunk data.
                uint32_t length = wi_be32(data + where.exif);
                d->exif = malloc(length);
                if (d->exif) {
                    memcpy(d->exif, data + where.exif + 8, length);
                    d->exif_size = length;
                }
            }
            d->rows_delivered = d->header.height;
            d->inflated_whole = 1;
            d->complete = 1;
            return WI_PNG_OK;
        }
    }
    return wi_png_decoder_feed(d, data + first + 8, size - first - 8);
}

int wi_png_decoder_inflated_whole(const wi_png_decoder *d) { return d->inflated_whole; }

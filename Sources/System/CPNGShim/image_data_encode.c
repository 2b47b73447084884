// The image data of an encode: rows filtered here and deflated with libdeflate (about twice zlib's speed at the
// same level, and smaller output), while libpng still writes the signature, IHDR and the metadata chunks
// (see wi_png_encode in shim.c).
#include "internal.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

static uint8_t wi_paeth_predict(uint8_t a, uint8_t b, uint8_t c) {
    int p = (int)a + b - c;
    int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
}

// |v| with v read as a signed byte: the weight libpng's heuristic gives a filtered byte.
static unsigned wi_weight(uint8_t v) { return v < 128 ? v : 256u - v; }

// The filtered byte of filter `type` for x with left a, above b, upper-left c.
static uint8_t wi_filtered(unsigned type, uint8_t x, uint8_t a, uint8_t b, uint8_t c) {
    switch (type) {
    case 1: return (uint8_t)(x - a);
    case 2: return (uint8_t)(x - b);
    case 3: return (uint8_t)(x - ((a + b) >> 1));
    case 4: return (uint8_t)(x - wi_paeth_predict(a, b, c));
    default: return x;
    }
}

// Writes filter byte + filtered row to out; the filter is the one whose bytes weigh least (earliest on a tie).
static void wi_filter_row(const uint8_t *row, const uint8_t *prior, size_t n, unsigned bpp, uint8_t *out) {
    size_t sums[5] = {0, 0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        uint8_t a = i >= bpp ? row[i - bpp] : 0, b = prior[i], c = i >= bpp ? prior[i - bpp] : 0, x = row[i];
        sums[0] += wi_weight(x);
        sums[1] += wi_weight((uint8_t)(x - a));
        sums[2] += wi_weight((uint8_t)(x - b));
        sums[3] += wi_weight((uint8_t)(x - ((a + b) >> 1)));
        sums[4] += wi_weight((uint8_t)(x - wi_paeth_predict(a, b, c)));
    }
    unsigned best = 0;
    for (unsigned t = 1; t < 5; t++)
        if (sums[t] < sums[best]) best = t;
    out[0] = (uint8_t)best;
    for (size_t i = 0; i < n; i++) {
        uint8_t a = i >= bpp ? row[i - bpp] : 0, c = i >= bpp ? prior[i - bpp] : 0;
        out[1 + i] = wi_filtered(best, row[i], a, prior[i], c);
    }
}

uint8_t *wi_png_deflate_rows(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                             unsigned channels, unsigned bit_depth, int level, size_t *size) {
    size_t row_bytes = (size_t)width * channels * (bit_depth / 8);
    unsigned bpp = channels * (bit_depth / 8);
    size_t filtered_size = (row_bytes + 1) * height;
    uint8_t *filtered = malloc(filtered_size ? filtered_size : 1);
    uint8_t *rows = calloc(2, row_bytes ? row_bytes : 1);      // big-endian copies of 16-bit rows: current, prior
    struct libdeflate_compressor *deflater = libdeflate_alloc_compressor(level);
    uint8_t *stream = NULL;
    *size = 0;
    if (!filtered || !rows || !deflater) goto done;

    const uint8_t *prior = rows + row_bytes;        // zeros before the first row
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = pixels + (size_t)y * stride;
        if (bit_depth == 16) {
            uint8_t *swapped = (uint8_t *)(y % 2 ? rows + row_bytes : rows);
            for (size_t i = 0; i < row_bytes; i += 2) {
                uint16_t v;
                memcpy(&v, row + i, 2);
                swapped[i] = (uint8_t)(v >> 8);
                swapped[i + 1] = (uint8_t)(v & 0xff);
            }
            row = swapped;
        }
        wi_filter_row(row, prior, row_bytes, bpp, filtered + (size_t)y * (row_bytes + 1));
        prior = row;
    }
    size_t bound = libdeflate_zlib_compress_bound(deflater, filtered_size);
    stream = malloc(bound);
    if (!stream) goto done;
    *size = libdeflate_zlib_compress(deflater, filtered, filtered_size, stream, bound);
    if (*size == 0) {           // cannot happen with a bound-sized buffer; treat as failure all the same
        free(stream);
        stream = NULL;
    }
done:
    if (deflater) libdeflate_free_compressor(deflater);
    free(rows);
    free(filtered);
    return stream;
}

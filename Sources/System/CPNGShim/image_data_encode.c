// The image data of an encode: rows filtered here and deflated with libdeflate (about twice zlib's speed at the
// same level, and smaller output), while libpng still writes the signature, IHDR and the metadata chunks
// (see wi_png_encode in shim.c).
#include "internal.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

// libpng's Paeth predictor, without branches (the loops below vectorize): a when it is nearest to a + b - c (ties
// to a, then b), else b when nearer than c, else c.
static inline uint8_t wi_paeth_predict(uint8_t a, uint8_t b, uint8_t c) {
    int pa = abs((int)b - c), pb = abs((int)a - c), pc = abs((int)a + b - 2 * c);
    uint8_t bc = pb <= pc ? b : c;
    return (pa <= pb && pa <= pc) ? a : bc;
}

// The sum of |v| over a row, v read as signed bytes: the weight libpng's heuristic gives a filtered row. Summed in
// 32-bit blocks (at most 128 x 65,536 each), which vectorize.
static size_t wi_row_weight(const uint8_t *bytes, size_t n) {
    size_t total = 0;
    for (size_t start = 0; start < n; start += 65536) {
        size_t end = n - start < 65536 ? n : start + 65536;
        uint32_t sum = 0;
        for (size_t i = start; i < end; i++) {
            uint8_t v = bytes[i];
            sum += v < 128 ? v : 256u - v;
        }
        total += sum;
    }
    return total;
}

// Writes filter byte + filtered row to out: the filter whose bytes weigh least (earliest on a tie), libpng's
// heuristic. Every candidate is made once, into `scratch` (4 x n bytes: Sub, Up, Average, Paeth), then weighed;
// the first bpp bytes have no left neighbour (a = c = 0), so the main loop has no branch.
static void wi_filter_row(const uint8_t *row, const uint8_t *prior, size_t n, unsigned bpp, uint8_t *out,
                          uint8_t *scratch) {
    uint8_t *sub = scratch, *up = scratch + n, *average = scratch + 2 * n, *paeth = scratch + 3 * n;
    size_t head = bpp < n ? bpp : n;
    for (size_t i = 0; i < head; i++) {
        uint8_t x = row[i], b = prior[i];
        sub[i] = x;
        up[i] = (uint8_t)(x - b);
        average[i] = (uint8_t)(x - (b >> 1));
        paeth[i] = (uint8_t)(x - wi_paeth_predict(0, b, 0));
    }
    for (size_t i = head; i < n; i++) {
        uint8_t x = row[i], a = row[i - bpp], b = prior[i], c = prior[i - bpp];
        sub[i] = (uint8_t)(x - a);
        up[i] = (uint8_t)(x - b);
        average[i] = (uint8_t)(x - ((a + b) >> 1));
        paeth[i] = (uint8_t)(x - wi_paeth_predict(a, b, c));
    }
    const uint8_t *candidates[5] = {row, sub, up, average, paeth};
    size_t best_weight = wi_row_weight(row, n);
    unsigned best = 0;
    for (unsigned t = 1; t < 5; t++) {
        size_t weight = wi_row_weight(candidates[t], n);
        if (weight < best_weight) {
            best_weight = weight;
            best = t;
        }
    }
    out[0] = (uint8_t)best;
    memcpy(out + 1, candidates[best], n);
}

uint8_t *wi_png_deflate_rows(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                             unsigned channels, unsigned bit_depth, int level, size_t *size) {
    size_t row_bytes = (size_t)width * channels * (bit_depth / 8);
    unsigned bpp = channels * (bit_depth / 8);
    size_t filtered_size = (row_bytes + 1) * height;
    uint8_t *filtered = malloc(filtered_size ? filtered_size : 1);
    uint8_t *rows = calloc(2, row_bytes ? row_bytes : 1);      // big-endian copies of 16-bit rows: current, prior
    uint8_t *scratch = malloc(row_bytes ? 4 * row_bytes : 1);   // the four filtered candidates of a row
    struct libdeflate_compressor *deflater = libdeflate_alloc_compressor(level);
    uint8_t *stream = NULL;
    *size = 0;
    if (!filtered || !rows || !scratch || !deflater) goto done;

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
        wi_filter_row(row, prior, row_bytes, bpp, filtered + (size_t)y * (row_bytes + 1), scratch);
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
    free(scratch);
    free(rows);
    free(filtered);
    return stream;
}

// The direct path's sample unpacker: 1-16-bit unsigned samples of grey (MinIsBlack/MinIsWhite), palette, RGB
// (and JPEG YCbCr that libjpeg already turned into RGB), CMYK and CIE L*a*b*, and 32-bit integer and 32/64-bit
// floating-point grey and RGB, contiguous or one plane per sample, into RGBA rows.
//
// Reductions follow the reference decoder (Pillow): n-bit samples (n < 8) scale by 255 / (2^n - 1), more than 8 bits
// keep the top 8 (v >> (n - 8)), palette entries keep the high byte, CMYK converts with Pillow's cmyk2rgb. 16-bit
// output keeps 16-bit samples and scales 9-15-bit ones to 0...65535. 32-bit samples become 16-bit ones: unsigned
// ones keep their top 16 bits (v >> 16, the rule above; libvips clips them to 0...255 instead, which turns a
// full-range picture white, and Pillow reads them as signed), signed ones are clipped to 0...65535 (Pillow's "I",
// as refdecode reduces it; such files hold 16-bit values, Pillow's own "I" TIFFs); floating-point samples are clipped
// to 0...255 and truncated, NaN as 0 (Pillow's "F" to "L", libvips' cast to uchar): data in 0...1 comes out black,
// as there. L*a*b* (8 or 16 bits) converts to sRGB with a D50 white (ICC's PCS), as Pillow's LittleCMS transform.
// Alpha is copied as stored (straight or associated: the Swift side knows which), or associated alpha is divided
// out as Pillow's rgba2rgbA does.
#include <math.h>
#include <string.h>
#include "internal.h"

static inline uint32_t wi_float8(double value) {
    if (!(value > 0)) return 0;  // NaN too
    return value >= 255.0 ? 255u : (uint32_t)value;
}

/// Sample `index` of a row, as a value of `reader->value_bits` bits (see the top of the file for 32/64 bits).
static inline uint32_t wi_sample(const uint8_t *row, size_t index, uint16_t bits, uint16_t format) {
    if (bits == 8) return row[index];
    if (bits == 16) {
        uint16_t value;
        memcpy(&value, row + index * 2, 2);  // libtiff has already swapped to host order
        return value;
    }
    if (bits == 32) {
        uint32_t raw;
        memcpy(&raw, row + index * 4, 4);
        if (format == SAMPLEFORMAT_IEEEFP) {
            float value;
            memcpy(&value, &raw, 4);
            return wi_float8(value);
        }
        if (format == SAMPLEFORMAT_INT) {
            int32_t value = (int32_t)raw;
            return value < 0 ? 0u : value > 65535 ? 65535u : (uint32_t)value;
        }
        return raw >> 16;  // unsigned: the top 16 bits, as every deeper unsigned sample is reduced
    }
    if (bits == 64) {
        double value;
        memcpy(&value, row + index * 8, 8);
        return wi_float8(value);
    }
    size_t bit = index * bits;
    const uint8_t *p = row + (bit >> 3);
    // Up to 16 bits starting anywhere in a byte span at most 3 bytes (the scratch has padding past each row).
    uint32_t window = ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | (uint32_t)p[2];
    unsigned shift = 24u - (unsigned)(bit & 7) - bits;
    return (window >> shift) & ((1u << bits) - 1u);
}

static inline uint32_t wi_to8(uint32_t value, uint16_t bits) {
    if (bits == 8) return value;
    if (bits > 8) return value >> (bits - 8);
    return value * 255u / ((1u << bits) - 1u);
}

static inline uint32_t wi_to16(uint32_t value, uint16_t bits) {
    if (bits == 16) return value;
    uint32_t max = (1u << bits) - 1u;
    return (value * 65535u + max / 2) / max;
}

/// An sRGB-encoded byte for a linear value (clipped to 0...1).
static inline uint32_t wi_srgb8(double linear) {
    if (!(linear > 0)) return 0;
    if (linear >= 1) return 255;
    double encoded = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1.0 / 2.4) - 0.055;
    return (uint32_t)(encoded * 255.0 + 0.5);
}

static inline double wi_lab_inverse(double t) {
    const double delta = 6.0 / 29.0;
    return t > delta ? t * t * t : 3.0 * delta * delta * (t - 4.0 / 29.0);
}

/// L*a*b* samples of `bits` bits (CIELAB: a*, b* two's complement; ICCLAB: offset by half the range) to sRGB:
/// L*a*b* to XYZ under D50, then the Bradford-adapted D50 sRGB matrix and the sRGB curve.
static void wi_lab_to_rgb8(int photometric, const uint32_t *s, uint16_t bits, uint32_t *rgb) {
    double range = bits == 16 ? 65535.0 : 255.0;
    double l = s[0] * 100.0 / range;
    double a, b;
    if (photometric == PHOTOMETRIC_CIELAB) {
        a = bits == 16 ? (int16_t)s[1] / 256.0 : (int8_t)s[1];
        b = bits == 16 ? (int16_t)s[2] / 256.0 : (int8_t)s[2];
    } else {
        a = bits == 16 ? ((double)s[1] - 32768.0) / 256.0 : (double)s[1] - 128.0;
        b = bits == 16 ? ((double)s[2] - 32768.0) / 256.0 : (double)s[2] - 128.0;
    }
    double fy = (l + 16.0) / 116.0;
    double x = 0.9642 * wi_lab_inverse(fy + a / 500.0);
    double y = wi_lab_inverse(fy);
    double z = 0.8249 * wi_lab_inverse(fy - b / 200.0);
    rgb[0] = wi_srgb8(3.1338561 * x - 1.6168667 * y - 0.4906146 * z);
    rgb[1] = wi_srgb8(-0.9787684 * x + 1.9161415 * y + 0.0334540 * z);
    rgb[2] = wi_srgb8(0.0719453 * x - 0.2289914 * y + 1.4052427 * z);
}

/// Pillow's cmyk2rgb: nk = max - k; channel = nk - c * nk / max (rounded like MULDIV255).
static inline uint32_t wi_cmyk8(uint32_t c, uint32_t k) {
    uint32_t nk = 255u - k;
    uint32_t t = c * nk + 128u;
    uint32_t product = ((t >> 8) + t) >> 8;
    return nk > product ? nk - product : 0;
}

static inline uint32_t wi_cmyk16(uint32_t c, uint32_t k) {
    uint32_t nk = 65535u - k;
    uint32_t product = (uint32_t)(((uint64_t)c * nk + 32767u) / 65535u);
    return nk > product ? nk - product : 0;
}

/// The common layouts without the per-sample reader: 1- and 8-bit grey, 8-bit RGB and RGBA, one plane, 8-bit output.
/// Returns 0 when the row is not one of them (the general loop then unpacks it). Same values as the general loop.
static int wi_unpack_row_fast(const wi_tiff_reader *reader, const uint8_t *row, uint8_t *out) {
    const wi_tiff_page *page = &reader->page;
    if (reader->output16 || reader->colormap[0] != NULL || reader->cmyk || reader->lab) return 0;
    uint32_t width = page->width;
    size_t spp = page->samples_per_pixel;
    if (reader->color_samples == 1 && reader->alpha_sample < 0 && spp == 1) {
        if (page->bits_per_sample == 8) {
            uint8_t flip = reader->invert ? 255 : 0;
            for (uint32_t x = 0; x < width; x++) {
                uint8_t grey = row[x] ^ flip;  // 255 - v == 255 ^ v for bytes
                out[4 * x] = out[4 * x + 1] = out[4 * x + 2] = grey;
                out[4 * x + 3] = 255;
            }
            return 1;
        }
        if (page->bits_per_sample == 1) {
            uint8_t flip = reader->invert ? 0xFF : 0;
            uint32_t x = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            // Eight pixels per source byte, each one 32-bit store of opaque white (0xFFFFFFFF: bytes 255, 255, 255,
            // 255) or opaque black (0xFF000000: bytes 0, 0, 0, 255), chosen without a branch: a fax page is mostly
            // this loop (8.7 million pixels for an A4 page at 300 dpi).
            for (; x + 8 <= width; x += 8) {
                uint32_t byte = (uint32_t)(row[x >> 3] ^ flip);
                uint32_t pixels[8];
                for (int k = 0; k < 8; k++) pixels[k] = 0xFF000000u | (0x00FFFFFFu & (0u - ((byte >> (7 - k)) & 1u)));
                memcpy(out + 4 * (size_t)x, pixels, sizeof pixels);
            }
#endif
            for (; x < width; x++) {
                uint8_t grey = (((row[x >> 3] ^ flip) >> (7 - (x & 7))) & 1) ? 255 : 0;
                out[4 * x] = out[4 * x + 1] = out[4 * x + 2] = grey;
                out[4 * x + 3] = 255;
            }
            return 1;
        }
        return 0;
    }
    if (page->bits_per_sample != 8 || reader->color_samples != 3 || page->planar == PLANARCONFIG_SEPARATE) return 0;
    if (spp == 3 && reader->alpha_sample < 0) {
        uint32_t x = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        // Four pixels at a time, each one 32-bit store (bytes r, g, b, 255) instead of four byte stores: this loop
        // was a tenth of an LZW photo's decode.
        for (; x + 4 <= width; x += 4) {
            const uint8_t *in = row + 3 * (size_t)x;
            uint32_t pixels[4];
            for (int k = 0; k < 4; k++) {
                pixels[k] = (uint32_t)in[3 * k] | (uint32_t)in[3 * k + 1] << 8 | (uint32_t)in[3 * k + 2] << 16 | 0xFF000000u;
            }
            memcpy(out + 4 * (size_t)x, pixels, sizeof pixels);
        }
#endif
        for (; x < width; x++) {
            out[4 * x] = row[3 * x];
            out[4 * x + 1] = row[3 * x + 1];
            out[4 * x + 2] = row[3 * x + 2];
            out[4 * x + 3] = 255;
        }
        return 1;
    }
    if (spp == 4 && reader->alpha_sample == 3) {
        if (!reader->unpremultiply) {
            memcpy(out, row, (size_t)width * 4);
            return 1;
        }
        for (uint32_t x = 0; x < width; x++) {
            uint32_t opacity = row[4 * x + 3];
            for (int c = 0; c < 3; c++) {
                uint32_t value = row[4 * x + c];
                if (opacity != 0 && opacity != 255) {
                    value = value * 255u / opacity;
                    if (value > 255) value = 255;
                }
                out[4 * x + c] = (uint8_t)value;
            }
            out[4 * x + 3] = (uint8_t)opacity;
        }
        return 1;
    }
    return 0;
}

void wi_tiff_unpack_rows(const wi_tiff_reader *reader, const uint8_t *const *planes, uint32_t rows, uint8_t *out,
                         size_t stride) {
    if (rows == 1 && wi_unpack_row_fast(reader, planes[0], out)) return;
    const wi_tiff_page *page = &reader->page;
    uint16_t raw_bits = page->bits_per_sample;
    uint16_t format = reader->sample_format;
    uint16_t bits = reader->value_bits;  // what the samples are reduced from, as read by wi_sample
    uint32_t max = (1u << bits) - 1u;
    int separate = page->planar == PLANARCONFIG_SEPARATE;
    size_t spp = page->samples_per_pixel;
    int colors = reader->color_samples;
    int alpha = reader->alpha_sample;
    // With separate planes, planes[] holds the colour planes then alpha (see wi_used_planes).
    int alpha_plane = colors;
    for (uint32_t r = 0; r < rows; r++) {
        uint8_t *row8 = out + (size_t)r * stride;
        uint16_t *row16 = (uint16_t *)(void *)row8;
        for (uint32_t x = 0; x < page->width; x++) {
            uint32_t s[5] = {0, 0, 0, 0, 0};
            for (int c = 0; c < colors; c++) {
                s[c] = separate ? wi_sample(planes[c], x, raw_bits, format)
                                : wi_sample(planes[0], (size_t)x * spp + c, raw_bits, format);
            }
            uint32_t a = 0;
            int has_alpha = alpha >= 0;
            if (has_alpha) {
                a = separate ? wi_sample(planes[alpha_plane], x, raw_bits, format)
                             : wi_sample(planes[0], (size_t)x * spp + (size_t)alpha, raw_bits, format);
            }
            uint32_t red, green, blue, opacity;
            if (reader->output16) {
                if (colors == 1) {
                    uint32_t grey = wi_to16(reader->invert ? max - s[0] : s[0], bits);
                    red = green = blue = grey;
                } else if (reader->cmyk) {
                    uint32_t k = wi_to16(s[3], bits);
                    red = wi_cmyk16(wi_to16(s[0], bits), k);
                    green = wi_cmyk16(wi_to16(s[1], bits), k);
                    blue = wi_cmyk16(wi_to16(s[2], bits), k);
                } else {
                    red = wi_to16(s[0], bits);
                    green = wi_to16(s[1], bits);
                    blue = wi_to16(s[2], bits);
                }
                opacity = has_alpha ? wi_to16(a, bits) : 65535u;
                row16[4 * x] = (uint16_t)red;
                row16[4 * x + 1] = (uint16_t)green;
                row16[4 * x + 2] = (uint16_t)blue;
                row16[4 * x + 3] = (uint16_t)opacity;
                continue;
            }
            if (reader->lab) {
                uint32_t rgb[3];
                wi_lab_to_rgb8(reader->lab, s, bits, rgb);
                red = rgb[0];
                green = rgb[1];
                blue = rgb[2];
            } else if (reader->colormap[0] != NULL) {
                uint32_t index = s[0];
                red = reader->colormap[0][index] >> 8;
                green = reader->colormap[1][index] >> 8;
                blue = reader->colormap[2][index] >> 8;
            } else if (colors == 1) {
                red = green = blue = wi_to8(reader->invert ? max - s[0] : s[0], bits);
            } else if (reader->cmyk) {
                uint32_t k = wi_to8(s[3], bits);
                red = wi_cmyk8(wi_to8(s[0], bits), k);
                green = wi_cmyk8(wi_to8(s[1], bits), k);
                blue = wi_cmyk8(wi_to8(s[2], bits), k);
            } else {
                red = wi_to8(s[0], bits);
                green = wi_to8(s[1], bits);
                blue = wi_to8(s[2], bits);
            }
            opacity = has_alpha ? wi_to8(a, bits) : 255u;
            if (reader->unpremultiply && opacity != 0 && opacity != 255) {
                red = red * 255u / opacity;
                green = green * 255u / opacity;
                blue = blue * 255u / opacity;
                if (red > 255) red = 255;
                if (green > 255) green = 255;
                if (blue > 255) blue = 255;
            }
            row8[4 * x] = (uint8_t)red;
            row8[4 * x + 1] = (uint8_t)green;
            row8[4 * x + 2] = (uint8_t)blue;
            row8[4 * x + 3] = (uint8_t)opacity;
        }
    }
}

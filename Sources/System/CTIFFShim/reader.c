// Reading: TIFFClientOpenExt over a memory block (read, seek, size and map procs; never a temporary file), page
// selection, and band-by-band decoding into RGBA rows.
#include <stdlib.h>
#include <string.h>
#include "internal.h"

// ---------------------------------------------------------------- memory procs

static tmsize_t wi_read_proc(thandle_t handle, void *buffer, tmsize_t size) {
    wi_tiff_reader *reader = handle;
    if (size <= 0 || reader->position >= reader->size) return 0;
    size_t available = reader->size - (size_t)reader->position;
    size_t count = (size_t)size < available ? (size_t)size : available;
    memcpy(buffer, reader->data + reader->position, count);
    reader->position += count;
    return (tmsize_t)count;
}

static tmsize_t wi_no_write_proc(thandle_t handle, void *buffer, tmsize_t size) {
    (void)handle; (void)buffer; (void)size;
    return -1;
}

static toff_t wi_seek_proc(thandle_t handle, toff_t offset, int whence) {
    wi_tiff_reader *reader = handle;
    uint64_t base = whence == SEEK_CUR ? reader->position : whence == SEEK_END ? reader->size : 0;
    // toff_t is unsigned; libtiff passes negative SEEK_CUR/SEEK_END offsets as their two's complement.
    uint64_t target = base + (uint64_t)offset;
    if (whence != SEEK_SET && (int64_t)offset < 0 && (uint64_t)(-(int64_t)offset) > base) return (toff_t)-1;
    if (target > (uint64_t)INT64_MAX) return (toff_t)-1;
    reader->position = target;
    return target;
}

static int wi_close_proc(thandle_t handle) { (void)handle; return 0; }

static toff_t wi_size_proc(thandle_t handle) { return ((wi_tiff_reader *)handle)->size; }

// Mapping lets libtiff decode strips straight from our bytes. It never writes to mapped data (a strip that needs
// bit reversal is copied first), so handing out a const block is safe.
static int wi_map_proc(thandle_t handle, void **base, toff_t *size) {
    wi_tiff_reader *reader = handle;
    *base = (void *)reader->data;
    *size = reader->size;
    return 1;
}

static void wi_unmap_proc(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

// ---------------------------------------------------------------- lifecycle

wi_tiff_reader *wi_tiff_reader_create(const uint8_t *data, size_t size, int copy, int64_t max_single_alloc) {
    wi_tiff_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) return NULL;
    if (copy && size > 0) {
        reader->owned = malloc(size);
        if (reader->owned == NULL) { free(reader); return NULL; }
        memcpy(reader->owned, data, size);
        data = reader->owned;
    }
    reader->data = data;
    reader->size = size;
    reader->max_single_alloc = max_single_alloc;
    return reader;
}

static void wi_end_page(wi_tiff_reader *reader) {
    if (reader->rgba_started) TIFFRGBAImageEnd(&reader->rgba);
    reader->rgba_started = 0;
}

void wi_tiff_reader_destroy(wi_tiff_reader *reader) {
    if (reader == NULL) return;
    wi_end_page(reader);
    if (reader->tif != NULL) TIFFClose(reader->tif);
    free(reader->scratch);
    free(reader->tile);
    free(reader->owned);
    free(reader);
}

wi_tiff_status wi_tiff_reader_open(wi_tiff_reader *reader) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (options == NULL) return WI_TIFF_OUT_OF_MEMORY;
    wi_tiff_messages_install(options, &reader->messages);
    if (reader->max_single_alloc > 0) TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)reader->max_single_alloc);
    reader->tif = TIFFClientOpenExt("memory", "rm", reader, wi_read_proc, wi_no_write_proc, wi_seek_proc,
                                    wi_close_proc, wi_size_proc, wi_map_proc, wi_unmap_proc, options);
    TIFFOpenOptionsFree(options);
    if (reader->tif == NULL) {
        wi_tiff_messages_set(&reader->messages, "not a readable TIFF file");
        return WI_TIFF_ERROR;
    }
    return WI_TIFF_OK;
}

const char *wi_tiff_reader_message(const wi_tiff_reader *reader) { return reader->messages.message; }

int wi_tiff_reader_warnings(const wi_tiff_reader *reader) { return reader->messages.warnings; }

int wi_tiff_reader_page_count(wi_tiff_reader *reader) {
    int count = (int)TIFFNumberOfDirectories(reader->tif);
    // The open read the first directory, so there is at least one page even when the chain after it is broken.
    if (count < 1) count = 1;
    // Counting walks the chain; go back to the first page for whoever reads next.
    TIFFSetDirectory(reader->tif, 0);
    return count;
}

const void *wi_tiff_reader_blob(wi_tiff_reader *reader, uint32_t tag, uint32_t *size) {
    uint32_t count = 0;
    void *bytes = NULL;
    if (TIFFGetField(reader->tif, tag, &count, &bytes) != 1 || bytes == NULL || count == 0) return NULL;
    *size = count;
    return bytes;
}

// ---------------------------------------------------------------- page selection

wi_tiff_status wi_tiff_reader_page_size(wi_tiff_reader *reader, int index, uint32_t *width, uint32_t *height) {
    wi_end_page(reader);
    *width = 0;
    *height = 0;
    if (index < 0 || TIFFSetDirectory(reader->tif, (tdir_t)index) != 1) {
        wi_tiff_messages_set(&reader->messages, "cannot read the page's directory");
        return WI_TIFF_ERROR;
    }
    TIFFGetField(reader->tif, TIFFTAG_IMAGEWIDTH, width);
    TIFFGetField(reader->tif, TIFFTAG_IMAGELENGTH, height);
    return WI_TIFF_OK;
}

/// Whether the samples can be unpacked here; also sets colour/alpha sample layout.
static int wi_choose_direct(wi_tiff_reader *reader, uint16_t extra_count, const uint16_t *extra_types,
                            int has_extra_tag) {
    wi_tiff_page *page = &reader->page;
    uint16_t bits = page->bits_per_sample;
    uint16_t format = reader->sample_format;
    if (format == SAMPLEFORMAT_UINT && bits >= 1 && bits <= 16) {
        reader->value_bits = bits;
    } else if ((format == SAMPLEFORMAT_UINT || format == SAMPLEFORMAT_INT) && bits == 32) {
        reader->value_bits = 16;  // unsigned: the top 16 bits; signed: clipped to 0...65535 (Pillow's "I")
    } else if (format == SAMPLEFORMAT_IEEEFP && (bits == 32 || bits == 64)) {
        reader->value_bits = 8;   // clipped to 0...255 and truncated (Pillow's "F" to "L", libvips' cast)
    } else {
        return 0;
    }
    // Palette indices, CMYK, YCbCr and Lab only as the integer samples they are defined with.
    int wide = bits > 16;
    switch (page->photometric) {
    case PHOTOMETRIC_MINISWHITE:
        // Pillow reads floating-point grey as is whatever the Photometric says (its "F" modes never invert).
        reader->invert = format != SAMPLEFORMAT_IEEEFP;
        reader->color_samples = 1;
        break;
    case PHOTOMETRIC_MINISBLACK: reader->color_samples = 1; break;
    case PHOTOMETRIC_RGB: reader->color_samples = 3; break;
    case PHOTOMETRIC_CIELAB:
    case PHOTOMETRIC_ICCLAB:
        // Converted here (D50 L*a*b* to sRGB, as Pillow's LittleCMS transform does); libtiff's RGBA interface
        // assumes a D65 white and its own display, 24-32 dB away.
        if ((bits != 8 && bits != 16) || format != SAMPLEFORMAT_UINT) return 0;
        reader->lab = page->photometric;
        reader->color_samples = 3;
        break;
    case PHOTOMETRIC_YCBCR:
        // JPEG-compressed YCbCr: libjpeg converts to RGB (JPEGCOLORMODE_RGB, set by the caller).
        if (page->compression != COMPRESSION_JPEG || bits != 8) return 0;
        reader->color_samples = 3;
        break;
    case PHOTOMETRIC_PALETTE:
        if (page->samples_per_pixel < 1 || bits > 8 || format != SAMPLEFORMAT_UINT) return 0;
        if (TIFFGetField(reader->tif, TIFFTAG_COLORMAP, &reader->colormap[0], &reader->colormap[1],
                         &reader->colormap[2]) != 1) return 0;
        reader->color_samples = 1;
        break;
    case PHOTOMETRIC_SEPARATED: {
        if (wide) return 0;
        uint16_t inkset = INKSET_CMYK;
        TIFFGetFieldDefaulted(reader->tif, TIFFTAG_INKSET, &inkset);
        if (inkset != INKSET_CMYK) return 0;
        reader->cmyk = 1;
        reader->color_samples = 4;
        break;
    }
    default: return 0;
    }
    if (page->samples_per_pixel < reader->color_samples) return 0;
    int extras = page->samples_per_pixel - reader->color_samples;
    if (has_extra_tag) {
        for (int i = 0; i < extra_count && i < extras; i++) {
            if (extra_types[i] == EXTRASAMPLE_ASSOCALPHA || extra_types[i] == EXTRASAMPLE_UNASSALPHA) {
                reader->alpha_sample = reader->color_samples + i;
                page->alpha = extra_types[i] == EXTRASAMPLE_ASSOCALPHA ? WI_TIFF_ALPHA_PREMULTIPLIED
                                                                       : WI_TIFF_ALPHA_STRAIGHT;
                break;
            }
        }
    } else if (extras == 1 && page->photometric != PHOTOMETRIC_PALETTE) {
        // No ExtraSamples tag but one sample more than the colour needs: read it as alpha, as Pillow does.
        reader->alpha_sample = reader->color_samples;
        page->alpha = WI_TIFF_ALPHA_STRAIGHT;
    }
    return 1;
}

/// Allocates the raw-row scratch for the direct path: one band of rows per plane that is used.
static wi_tiff_status wi_prepare_direct(wi_tiff_reader *reader) {
    wi_tiff_page *page = &reader->page;
    TIFF *tif = reader->tif;
    reader->row_bytes = (size_t)TIFFScanlineSize64(tif);
    if (reader->row_bytes == 0) return WI_TIFF_ERROR;
    uint32_t band = page->band_height;
    size_t planes = page->planar == PLANARCONFIG_SEPARATE ? (size_t)page->samples_per_pixel : 1;
    if (planes > 5) planes = 5;  // at most 4 colour samples and alpha are read
    // +8: the bit unpacker may read a few bytes past a row's last sample.
    size_t per_plane = reader->row_bytes * band + 8;
    if (per_plane / band < reader->row_bytes) return WI_TIFF_OUT_OF_MEMORY;
    size_t need = per_plane * planes;
    if (reader->max_single_alloc > 0 && need > (size_t)reader->max_single_alloc) {
        wi_tiff_messages_set(&reader->messages, "a band of rows exceeds the memory limit");
        return WI_TIFF_ERROR;
    }
    if (need > reader->scratch_size) {
        free(reader->scratch);
        reader->scratch = malloc(need);
        reader->scratch_size = reader->scratch == NULL ? 0 : need;
        if (reader->scratch == NULL) return WI_TIFF_OUT_OF_MEMORY;
    }
    memset(reader->scratch, 0, need);
    if (page->tiled) {
        size_t tile = (size_t)TIFFTileSize64(tif);
        if (tile == 0) return WI_TIFF_ERROR;
        if (tile > reader->tile_size) {
            free(reader->tile);
            reader->tile = malloc(tile);
            reader->tile_size = reader->tile == NULL ? 0 : tile;
            if (reader->tile == NULL) return WI_TIFF_OUT_OF_MEMORY;
        }
    }
    return WI_TIFF_OK;
}

static wi_tiff_status wi_prepare_rgba(wi_tiff_reader *reader) {
    char message[1024] = {0};
    if (!TIFFRGBAImageOK(reader->tif, message)) {
        wi_tiff_messages_set(&reader->messages, message[0] ? message : "unsupported TIFF layout");
        return WI_TIFF_UNSUPPORTED;
    }
    if (!TIFFRGBAImageBegin(&reader->rgba, reader->tif, 1, message)) {
        wi_tiff_messages_set(&reader->messages, message[0] ? message : "unsupported TIFF layout");
        return WI_TIFF_UNSUPPORTED;
    }
    reader->rgba_started = 1;
    // Rows as stored: the Swift side applies the Orientation tag (the RGBA interface would only flip).
    reader->rgba.req_orientation = ORIENTATION_TOPLEFT;
    reader->rgba.orientation = ORIENTATION_TOPLEFT;
    reader->page.alpha = reader->rgba.alpha != 0 ? WI_TIFF_ALPHA_PREMULTIPLIED : WI_TIFF_ALPHA_NONE;
    return WI_TIFF_OK;
}

int wi_tiff_reader_page_incomplete(const wi_tiff_reader *reader) { return reader->incomplete; }

wi_tiff_status wi_tiff_reader_select_page(wi_tiff_reader *reader, int index, int want16, int want_straight,
                                          wi_tiff_page *out) {
    TIFF *tif = reader->tif;
    wi_end_page(reader);
    if (index < 0 || TIFFSetDirectory(tif, (tdir_t)index) != 1) {
        wi_tiff_messages_set(&reader->messages, "cannot read the page's directory");
        return WI_TIFF_ERROR;
    }
    wi_tiff_page *page = &reader->page;
    memset(page, 0, sizeof *page);
    reader->alpha_sample = -1;
    reader->incomplete = 0;
    reader->unpremultiply = 0;
    reader->invert = 0;
    reader->cmyk = 0;
    reader->lab = 0;
    reader->value_bits = 0;
    reader->colormap[0] = reader->colormap[1] = reader->colormap[2] = NULL;
    uint16_t extra_count = 0;
    uint16_t *extra_types = NULL;
    if (TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &page->width) != 1 ||
        TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &page->height) != 1) {
        wi_tiff_messages_set(&reader->messages, "the page has no size");
        return WI_TIFF_ERROR;
    }
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &page->bits_per_sample);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &page->samples_per_pixel);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &page->compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &page->planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &reader->sample_format);
    if (TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &page->photometric) != 1) {
        // Three samples are RGB; fewer are MinIsWhite (Photometric's value 0, which Pillow assumes, and what bilevel
        // fax files without the tag mean).
        page->photometric = page->samples_per_pixel >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISWHITE;
    }
    if (TIFFGetField(tif, TIFFTAG_ORIENTATION, &page->orientation) != 1 || page->orientation < 1 ||
        page->orientation > 8) page->orientation = ORIENTATION_TOPLEFT;
    int has_extra_tag = TIFFGetField(tif, TIFFTAG_EXTRASAMPLES, &extra_count, &extra_types) == 1;
    if (page->width == 0 || page->height == 0) {
        wi_tiff_messages_set(&reader->messages, "the page is empty");
        return WI_TIFF_ERROR;
    }
    page->tiled = TIFFIsTiled(tif);
    if (page->compression == COMPRESSION_JPEG && page->photometric == PHOTOMETRIC_YCBCR) {
        TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
    }
    page->direct = wi_choose_direct(reader, extra_count, extra_types, has_extra_tag);
    // The direct path's contiguous strips are read row by row (TIFFReadScanline); its separate planes and tiles,
    // and the RGBA interface, a strip or a row of tiles at a time.
    if (page->tiled) {
        uint32_t tile_height = 0;
        TIFFGetField(tif, TIFFTAG_TILEWIDTH, &reader->tile_width);
        TIFFGetField(tif, TIFFTAG_TILELENGTH, &tile_height);
        if (reader->tile_width == 0 || tile_height == 0) {
            wi_tiff_messages_set(&reader->messages, "invalid tile size");
            return WI_TIFF_ERROR;
        }
        page->band_height = tile_height;
    } else {
        uint32_t rows = page->height;
        TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rows);
        if (rows == 0) rows = page->height;
        reader->rows_per_strip = rows;
        if (page->direct && page->planar == PLANARCONFIG_CONTIG) {
            page->band_height = rows < 64 ? rows : 64;
        } else {
            page->band_height = rows;
        }
    }
    if (page->band_height > page->height) page->band_height = page->height;
    page->band_count = (page->height + page->band_height - 1) / page->band_height;
    page->can_output16 = page->direct && reader->value_bits > 8 && page->photometric != PHOTOMETRIC_PALETTE &&
                         !reader->lab;
    reader->output16 = want16 && page->can_output16;
    if (want_straight && page->direct && !reader->output16 && page->alpha == WI_TIFF_ALPHA_PREMULTIPLIED) {
        reader->unpremultiply = 1;
        page->alpha = WI_TIFF_ALPHA_STRAIGHT;
    }
    wi_tiff_status status = page->direct ? wi_prepare_direct(reader) : wi_prepare_rgba(reader);
    *out = *page;
    return status;
}

// ---------------------------------------------------------------- bands

/// Data ran short at `row`: from the second row on, the rest of the page is decoded from zero samples (Pillow pads
/// a truncated file the same way) and the page is flagged; a page with no decodable row is an error.
static int wi_run_short(wi_tiff_reader *reader, uint32_t row) {
    if (row == 0) return 0;
    reader->incomplete = 1;
    return 1;
}

static wi_tiff_status wi_read_band_scanlines(wi_tiff_reader *reader, uint32_t y0, uint32_t rows, uint8_t *out,
                                             size_t stride) {
    uint8_t *raw = reader->scratch;
    for (uint32_t r = 0; r < rows; r++) {
        if (reader->incomplete || TIFFReadScanline(reader->tif, raw, y0 + r, 0) < 0) {
            if (!wi_run_short(reader, y0 + r)) return WI_TIFF_ERROR;
            memset(raw, 0, reader->row_bytes);
        }
        const uint8_t *planes[1] = {raw};
        wi_tiff_unpack_rows(reader, planes, 1, out + (size_t)r * stride, stride);
    }
    return WI_TIFF_OK;
}

/// The planes the unpacker reads when samples are separate: colour samples then alpha.
static int wi_used_planes(const wi_tiff_reader *reader, uint16_t *samples) {
    int count = 0;
    for (int s = 0; s < reader->color_samples; s++) samples[count++] = (uint16_t)s;
    if (reader->alpha_sample >= 0) samples[count++] = (uint16_t)reader->alpha_sample;
    return count;
}

static wi_tiff_status wi_read_band_strips(wi_tiff_reader *reader, uint32_t band, uint32_t rows, uint8_t *out,
                                          size_t stride) {
    TIFF *tif = reader->tif;
    uint16_t samples[5];
    int count = wi_used_planes(reader, samples);
    const uint8_t *planes[5] = {0};
    size_t per_plane = reader->row_bytes * reader->page.band_height + 8;
    uint32_t strips_per_plane = (reader->page.height + reader->rows_per_strip - 1) / reader->rows_per_strip;
    for (int p = 0; p < count; p++) {
        uint8_t *destination = reader->scratch + per_plane * (size_t)p;
        uint32_t strip = (uint32_t)samples[p] * strips_per_plane + band;
        tmsize_t want = (tmsize_t)(reader->row_bytes * rows);
        if (reader->incomplete || TIFFReadEncodedStrip(tif, strip, destination, want) < 0) {
            if (!wi_run_short(reader, band * reader->page.band_height)) return WI_TIFF_ERROR;
            memset(destination, 0, (size_t)want);
        }
        planes[p] = destination;
    }
    const uint8_t *row_planes[5];
    for (uint32_t r = 0; r < rows; r++) {
        for (int p = 0; p < count; p++) row_planes[p] = planes[p] + (size_t)r * reader->row_bytes;
        wi_tiff_unpack_rows(reader, row_planes, 1, out + (size_t)r * stride, stride);
    }
    return WI_TIFF_OK;
}

static wi_tiff_status wi_read_band_tiles(wi_tiff_reader *reader, uint32_t y0, uint32_t rows, uint8_t *out,
                                         size_t stride) {
    TIFF *tif = reader->tif;
    wi_tiff_page *page = &reader->page;
    int separate = page->planar == PLANARCONFIG_SEPARATE;
    uint16_t samples[5];
    int count = separate ? wi_used_planes(reader, samples) : 1;
    if (!separate) samples[0] = 0;
    size_t per_plane = reader->row_bytes * page->band_height + 8;
    size_t tile_row_bytes = (size_t)TIFFTileRowSize64(tif);
    size_t bits_per_pixel = (size_t)page->bits_per_sample * (separate ? 1 : page->samples_per_pixel);
    const uint8_t *planes[5];
    for (int p = 0; p < count; p++) {
        uint8_t *destination = reader->scratch + per_plane * (size_t)p;
        planes[p] = destination;
        for (uint32_t x = 0; x < page->width; x += reader->tile_width) {
            uint32_t tile = TIFFComputeTile(tif, x, y0, 0, samples[p]);
            if (reader->incomplete || TIFFReadEncodedTile(tif, tile, reader->tile, (tmsize_t)reader->tile_size) < 0) {
                if (!wi_run_short(reader, y0)) return WI_TIFF_ERROR;
                memset(reader->tile, 0, reader->tile_size);
            }
            // Tile widths are multiples of 16, so every tile starts on a byte boundary of the row.
            size_t offset = (size_t)x * bits_per_pixel / 8;
            size_t length = tile_row_bytes;
            if (offset + length > reader->row_bytes) length = reader->row_bytes - offset;
            for (uint32_t r = 0; r < rows; r++) {
                memcpy(destination + (size_t)r * reader->row_bytes + offset,
                       reader->tile + (size_t)r * tile_row_bytes, length);
            }
        }
    }
    const uint8_t *row_planes[5];
    for (uint32_t r = 0; r < rows; r++) {
        for (int p = 0; p < count; p++) row_planes[p] = planes[p] + (size_t)r * reader->row_bytes;
        wi_tiff_unpack_rows(reader, row_planes, 1, out + (size_t)r * stride, stride);
    }
    return WI_TIFF_OK;
}

static wi_tiff_status wi_read_band_rgba(wi_tiff_reader *reader, uint32_t y0, uint32_t rows, uint8_t *out,
                                        size_t stride) {
    uint32_t width = reader->page.width;
    size_t packed = (size_t)width * 4;
    uint32_t *raster = (uint32_t *)out;
    uint32_t *temporary = NULL;
    if (stride != packed || ((uintptr_t)out & 3) != 0) {
        temporary = malloc(packed * rows);
        if (temporary == NULL) return WI_TIFF_OUT_OF_MEMORY;
        raster = temporary;
    }
    reader->rgba.row_offset = (int)y0;
    reader->rgba.col_offset = 0;
    int ok = TIFFRGBAImageGet(&reader->rgba, raster, width, rows);
    if (ok) {
        // ABGR words to R, G, B, A bytes (the same bytes on little-endian hosts).
        for (uint32_t r = 0; r < rows; r++) {
            const uint32_t *source = raster + (size_t)r * width;
            uint8_t *destination = out + (size_t)r * stride;
            for (uint32_t x = 0; x < width; x++) {
                uint32_t pixel = source[x];
                destination[4 * x] = (uint8_t)TIFFGetR(pixel);
                destination[4 * x + 1] = (uint8_t)TIFFGetG(pixel);
                destination[4 * x + 2] = (uint8_t)TIFFGetB(pixel);
                destination[4 * x + 3] = (uint8_t)TIFFGetA(pixel);
            }
        }
    }
    free(temporary);
    return ok ? WI_TIFF_OK : WI_TIFF_ERROR;
}

wi_tiff_status wi_tiff_reader_read_band(wi_tiff_reader *reader, uint32_t band, void *out, size_t stride) {
    wi_tiff_page *page = &reader->page;
    if (band >= page->band_count) return WI_TIFF_ERROR;
    uint32_t y0 = band * page->band_height;
    uint32_t rows = page->height - y0 < page->band_height ? page->height - y0 : page->band_height;
    wi_tiff_status status;
    if (!page->direct) {
        status = wi_read_band_rgba(reader, y0, rows, out, stride);
    } else if (page->tiled) {
        status = wi_read_band_tiles(reader, y0, rows, out, stride);
    } else if (page->planar == PLANARCONFIG_SEPARATE) {
        status = wi_read_band_strips(reader, band, rows, out, stride);
    } else {
        status = wi_read_band_scanlines(reader, y0, rows, out, stride);
    }
    if (status == WI_TIFF_ERROR) wi_tiff_messages_set(&reader->messages, "cannot decode the image data");
    return status;
}

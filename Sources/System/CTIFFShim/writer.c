// Writing: TIFFClientOpenExt over a growing memory block, one directory per page, 8-bit RGB(A) with LZW or Deflate
// and the horizontal predictor.
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct wi_tiff_writer {
    uint8_t *bytes;
    size_t size;
    size_t capacity;
    uint64_t position;
    TIFF *tif;
    int closed;
    uint8_t *row;
    size_t row_size;
    wi_tiff_messages messages;
};

static tmsize_t wi_writer_read(thandle_t handle, void *buffer, tmsize_t size) {
    struct wi_tiff_writer *writer = handle;
    if (size <= 0 || writer->position >= writer->size) return 0;
    size_t available = writer->size - (size_t)writer->position;
    size_t count = (size_t)size < available ? (size_t)size : available;
    memcpy(buffer, writer->bytes + writer->position, count);
    writer->position += count;
    return (tmsize_t)count;
}

static tmsize_t wi_writer_write(thandle_t handle, void *buffer, tmsize_t size) {
    struct wi_tiff_writer *writer = handle;
    if (size < 0) return -1;
    uint64_t end = writer->position + (uint64_t)size;
    if (end > SIZE_MAX / 2) return -1;
    if (end > writer->capacity) {
        size_t capacity = writer->capacity < 65536 ? 65536 : writer->capacity;
        while (capacity < end) capacity *= 2;
        uint8_t *grown = realloc(writer->bytes, capacity);
        if (grown == NULL) return -1;
        writer->bytes = grown;
        writer->capacity = capacity;
    }
    if (writer->position > writer->size) memset(writer->bytes + writer->size, 0, writer->position - writer->size);
    memcpy(writer->bytes + writer->position, buffer, (size_t)size);
    writer->position = end;
    if (end > writer->size) writer->size = (size_t)end;
    return size;
}

static toff_t wi_writer_seek(thandle_t handle, toff_t offset, int whence) {
    struct wi_tiff_writer *writer = handle;
    uint64_t base = whence == SEEK_CUR ? writer->position : whence == SEEK_END ? writer->size : 0;
    if (whence != SEEK_SET && (int64_t)offset < 0 && (uint64_t)(-(int64_t)offset) > base) return (toff_t)-1;
    writer->position = base + (uint64_t)offset;
    return writer->position;
}

static int wi_writer_close(thandle_t handle) { (void)handle; return 0; }

static toff_t wi_writer_size(thandle_t handle) { return ((struct wi_tiff_writer *)handle)->size; }

static int wi_writer_map(thandle_t handle, void **base, toff_t *size) {
    (void)handle; (void)base; (void)size;
    return 0;
}

static void wi_writer_unmap(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

wi_tiff_writer *wi_tiff_writer_create(void) {
    wi_tiff_writer *writer = calloc(1, sizeof *writer);
    if (writer == NULL) return NULL;
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (options == NULL) { free(writer); return NULL; }
    wi_tiff_messages_install(options, &writer->messages);
    writer->tif = TIFFClientOpenExt("memory", "w", writer, wi_writer_read, wi_writer_write, wi_writer_seek,
                                    wi_writer_close, wi_writer_size, wi_writer_map, wi_writer_unmap, options);
    TIFFOpenOptionsFree(options);
    if (writer->tif == NULL) { free(writer); return NULL; }
    return writer;
}

void wi_tiff_writer_destroy(wi_tiff_writer *writer) {
    if (writer == NULL) return;
    if (!writer->closed && writer->tif != NULL) TIFFClose(writer->tif);
    free(writer->row);
    free(writer->bytes);
    free(writer);
}

wi_tiff_status wi_tiff_writer_add_page(wi_tiff_writer *writer, const uint8_t *rgba, uint32_t width, uint32_t height,
                                       size_t stride, int with_alpha, wi_tiff_compression compression,
                                       uint16_t orientation, uint16_t page, uint16_t pages) {
    TIFF *tif = writer->tif;
    if (writer->closed || width == 0 || height == 0) return WI_TIFF_ERROR;
    uint16_t channels = with_alpha ? 4 : 3;
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, width);
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, height);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, 8);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, channels);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB);
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, (uint16_t)compression);
    TIFFSetField(tif, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
    TIFFSetField(tif, TIFFTAG_ORIENTATION, orientation >= 1 && orientation <= 8 ? orientation : ORIENTATION_TOPLEFT);
    if (with_alpha) {
        uint16_t extra = EXTRASAMPLE_UNASSALPHA;
        TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, 1, &extra);
    }
    if (pages > 1) {
        TIFFSetField(tif, TIFFTAG_SUBFILETYPE, FILETYPE_PAGE);
        TIFFSetField(tif, TIFFTAG_PAGENUMBER, page, pages);
    }
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(tif, 0));
    size_t row_size = (size_t)width * channels;
    if (row_size > writer->row_size) {
        free(writer->row);
        writer->row = malloc(row_size);
        writer->row_size = writer->row == NULL ? 0 : row_size;
        if (writer->row == NULL) return WI_TIFF_OUT_OF_MEMORY;
    }
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *source = rgba + (size_t)y * stride;
        if (with_alpha) {
            memcpy(writer->row, source, row_size);
        } else {
            for (uint32_t x = 0; x < width; x++) memcpy(writer->row + 3 * (size_t)x, source + 4 * (size_t)x, 3);
        }
        // TIFFWriteScanline may modify the row (the predictor works in place), hence the copy.
        if (TIFFWriteScanline(tif, writer->row, y, 0) < 0) {
            wi_tiff_messages_set(&writer->messages, "cannot write a row");
            return WI_TIFF_ERROR;
        }
    }
    if (TIFFWriteDirectory(tif) != 1) {
        wi_tiff_messages_set(&writer->messages, "cannot write the directory");
        return WI_TIFF_ERROR;
    }
    return WI_TIFF_OK;
}

wi_tiff_status wi_tiff_writer_finish(wi_tiff_writer *writer, const uint8_t **data, size_t *size) {
    if (!writer->closed) {
        TIFFClose(writer->tif);
        writer->closed = 1;
    }
    if (writer->messages.message[0] != 0 || writer->bytes == NULL) return WI_TIFF_ERROR;
    *data = writer->bytes;
    *size = writer->size;
    return WI_TIFF_OK;
}

const char *wi_tiff_writer_message(const wi_tiff_writer *writer) { return writer->messages.message; }

// See include/CJPEGShim.h: the encoder side, with its own growable memory destination (so that every byte it
// allocated is freed on failure too).
#include "CJPEGShim.h"
#include "error.h"

#include <jerror.h>

#include <stdlib.h>
#include <string.h>

typedef struct {
    struct jpeg_compress_struct cinfo;
    wi_jpeg_error error;
    struct jpeg_destination_mgr destination;
    uint8_t *bytes;
    size_t capacity;
    uint8_t *row;
    int created;
} wi_jpeg_encoder;

static void wi_jpeg_grow(j_compress_ptr cinfo, wi_jpeg_encoder *e) {
    size_t capacity = e->capacity ? e->capacity * 2 : 65536;
    uint8_t *grown = realloc(e->bytes, capacity);
    if (!grown) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    e->bytes = grown;
    e->destination.next_output_byte = grown + e->capacity;
    e->destination.free_in_buffer = capacity - e->capacity;
    e->capacity = capacity;
}

static void wi_jpeg_destination_init(j_compress_ptr cinfo) { wi_jpeg_grow(cinfo, cinfo->client_data); }

static boolean wi_jpeg_destination_empty(j_compress_ptr cinfo) {
    // Called when the whole buffer is full (free_in_buffer == 0): grow it and go on.
    wi_jpeg_grow(cinfo, cinfo->client_data);
    return TRUE;
}

static void wi_jpeg_destination_term(j_compress_ptr cinfo) { (void)cinfo; }

// Pixels with alpha < 255 over the background: round((c * a + bg * (255 - a)) / 255). Opaque rows are used as is.
static const uint8_t *wi_jpeg_composite(const uint8_t *source, uint8_t *row, JDIMENSION width, const uint8_t *bg) {
    JDIMENSION x = 0;
    while (x < width && source[(size_t)x * 4 + 3] == 255) x++;
    if (x == width) return source;
    memcpy(row, source, (size_t)width * 4);
    for (; x < width; x++) {
        uint8_t *p = row + (size_t)x * 4;
        int a = p[3];
        for (int i = 0; i < 3; i++) p[i] = (uint8_t)((p[i] * a + bg[i] * (255 - a) + 127) / 255);
        p[3] = 255;
    }
    return row;
}

wi_jpeg_status wi_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                              const wi_jpeg_encode_settings *settings, const uint8_t *exif, size_t exif_size,
                              const uint8_t *icc, size_t icc_size, uint8_t **out, size_t *out_size, char *message,
                              size_t message_capacity) {
    *out = NULL;
    *out_size = 0;
    if (message_capacity) message[0] = 0;
    // Heap, not stack: its fields are read after a longjmp back into this frame.
    wi_jpeg_encoder *volatile e = calloc(1, sizeof(wi_jpeg_encoder));
    if (!e) return WI_JPEG_OUT_OF_MEMORY;
    j_compress_ptr cinfo = &e->cinfo;
    cinfo->err = wi_jpeg_error_init(&e->error);
    if (setjmp(e->error.jump)) {
        wi_jpeg_status status = e->error.out_of_memory ? WI_JPEG_OUT_OF_MEMORY : WI_JPEG_ERROR;
        if (message_capacity) {
            strncpy(message, e->error.message, message_capacity - 1);
            message[message_capacity - 1] = 0;
        }
        if (e->created) jpeg_destroy_compress(&e->cinfo);
        free(e->bytes);
        free(e->row);
        free(e);
        return status;
    }
    jpeg_create_compress(cinfo);
    e->created = 1;
    cinfo->client_data = e;
    e->destination.init_destination = wi_jpeg_destination_init;
    e->destination.empty_output_buffer = wi_jpeg_destination_empty;
    e->destination.term_destination = wi_jpeg_destination_term;
    cinfo->dest = &e->destination;

    cinfo->image_width = width;
    cinfo->image_height = height;
    cinfo->input_components = 4;
    cinfo->in_color_space = JCS_EXT_RGBX;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, settings->quality, TRUE);
    cinfo->optimize_coding = settings->optimize_coding ? TRUE : FALSE;
    if (settings->chroma_444) {
        cinfo->comp_info[0].h_samp_factor = 1;
        cinfo->comp_info[0].v_samp_factor = 1;
    }
    if (settings->progressive) jpeg_simple_progression(cinfo);
    jpeg_start_compress(cinfo, TRUE);

    static const uint8_t exif_prefix[6] = {'E', 'x', 'i', 'f', 0, 0};
    if (exif && exif_size > 0 && exif_size <= 65533 - 6) {
        jpeg_write_m_header(cinfo, JPEG_APP0 + 1, (unsigned int)(exif_size + 6));
        for (size_t i = 0; i < 6; i++) jpeg_write_m_byte(cinfo, exif_prefix[i]);
        for (size_t i = 0; i < exif_size; i++) jpeg_write_m_byte(cinfo, exif[i]);
    }
    if (icc && icc_size > 0) jpeg_write_icc_profile(cinfo, icc, (unsigned int)icc_size);

    e->row = malloc((size_t)width * 4);
    if (!e->row) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 1);
    while (cinfo->next_scanline < cinfo->image_height) {
        const uint8_t *source = rgba + (size_t)cinfo->next_scanline * stride;
        JSAMPROW row = (JSAMPROW)wi_jpeg_composite(source, e->row, width, settings->background);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);

    *out_size = e->capacity - e->destination.free_in_buffer;
    *out = e->bytes;
    jpeg_destroy_compress(cinfo);
    free(e->row);
    free(e);
    return WI_JPEG_OK;
}

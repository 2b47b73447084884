// See include/CJPEGShim.h: the decoder side. One state machine serves one-shot and incremental decodes alike
// (libjpeg's suspending-source protocol), so a one-shot decode equals an incremental one by construction. The only
// differences of a one-shot decode: libjpeg reads the caller's bytes in place instead of a copy, and the output
// buffer is not zero-filled (a complete decode writes every row, and nothing is shown before it completes).
#include "CJPEGShim.h"
#include "error.h"

#include <jerror.h>
#include <stdlib.h>
#include <string.h>

enum wi_jpeg_stage {
    STAGE_HEADER,      // reading markers up to the first SOS
    STAGE_WAIT_START,  // header read; waiting for wi_jpeg_decoder_start (scale, pixel limit)
    STAGE_SCANLINES,   // single scan: rows decoded straight into the output as data arrives
    STAGE_BUFFERED,    // multiple scans: buffered-image mode, coefficients gathered scan by scan
    STAGE_FINISH,      // image data done, reading up to EOI
    STAGE_DONE,
};

// More scans than any real encoder writes (libjpeg's own progressive script has 10); guards against files that
// repeat tiny scans to make each one cost a pass over the whole image.
#define WI_JPEG_MAX_SCANS 1000

struct wi_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    wi_jpeg_error error;
    struct jpeg_source_mgr source;
    uint8_t *data;              // bytes fed and not yet consumed by libjpeg (compacted as it reads)
    size_t size;
    size_t capacity;
    size_t skip;                // bytes skip_input_data still owes from data not yet fed
    int end_of_data;
    int eof_in_image;           // the data ended before the image data did
    int created;                // jpeg_create_decompress ran
    int in_place;               // reading the caller's bytes in place (a one-shot decode)
    int failed;
    wi_jpeg_status failure;
    enum wi_jpeg_stage stage;
    int cmyk;
    int keep_cmyk;              // leave CMYK samples as libjpeg outputs them (for a colour-managed conversion)
    int pending_finish_output;  // jpeg_finish_output suspended waiting for the next scan's SOS
    int last_completed_scan;
    int rendered_scan;
    uint64_t rows;
    wi_jpeg_info info;
    uint8_t *pixels;
    uint8_t *exif, *xmp, *icc;
    size_t exif_size, xmp_size;
    unsigned int icc_size;
    struct jpeg_progress_mgr progress;
    int (*should_stop)(void);
    int cancelled;
};

static const JOCTET wi_jpeg_fake_eoi[2] = {0xFF, JPEG_EOI};

// ---- Source manager: every byte fed so far, suspending (returning FALSE) when libjpeg wants more ----

static void wi_jpeg_source_init(j_decompress_ptr cinfo) { (void)cinfo; }
static void wi_jpeg_source_term(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean wi_jpeg_source_fill(j_decompress_ptr cinfo) {
    wi_jpeg_decoder *d = cinfo->client_data;
    if (!d->end_of_data) return FALSE;  // suspend: libjpeg keeps its place and resumes after the next feed
    // No more data will come: end the stream with a fake EOI as libjpeg's own sources do, and say so.
    if (d->stage == STAGE_HEADER || d->stage == STAGE_SCANLINES || d->stage == STAGE_BUFFERED) d->eof_in_image = 1;
    WARNMS(cinfo, JWRN_JPEG_EOF);
    cinfo->src->next_input_byte = wi_jpeg_fake_eoi;
    cinfo->src->bytes_in_buffer = 2;
    return TRUE;
}

static void wi_jpeg_source_skip(j_decompress_ptr cinfo, long count) {
    wi_jpeg_decoder *d = cinfo->client_data;
    struct jpeg_source_mgr *source = cinfo->src;
    if (count <= 0) return;
    if ((size_t)count <= source->bytes_in_buffer) {
        source->next_input_byte += count;
        source->bytes_in_buffer -= (size_t)count;
    } else {
        d->skip += (size_t)count - source->bytes_in_buffer;
        source->next_input_byte += source->bytes_in_buffer;
        source->bytes_in_buffer = 0;
    }
}

// Appends bytes, dropping what libjpeg has consumed: it never keeps pointers into the buffer across calls.
static int wi_jpeg_append(wi_jpeg_decoder *d, const uint8_t *bytes, size_t count) {
    size_t consumed = d->source.next_input_byte && d->data ? (size_t)(d->source.next_input_byte - d->data) : 0;
    if (consumed > d->size) consumed = d->size;
    size_t kept = d->size - consumed;
    if (consumed > 0) {
        memmove(d->data, d->data + consumed, kept);
        d->size = kept;
    }
    if (d->size + count > d->capacity) {
        size_t capacity = d->capacity ? d->capacity : 16384;
        while (capacity < d->size + count) capacity *= 2;
        uint8_t *grown = realloc(d->data, capacity);
        if (!grown) return 0;
        d->data = grown;
        d->capacity = capacity;
    }
    if (count) memcpy(d->data + d->size, bytes, count);
    d->size += count;
    size_t start = d->skip < d->size ? d->skip : d->size;
    d->skip -= start;
    d->source.next_input_byte = d->data + start;
    d->source.bytes_in_buffer = d->size - start;
    return 1;
}

// ---- Helpers ----

static void wi_jpeg_fail(wi_jpeg_decoder *d, const char *message) {
    strncpy(d->error.message, message, sizeof d->error.message - 1);
    d->error.message[sizeof d->error.message - 1] = 0;
    longjmp(d->error.jump, 1);
}

static wi_jpeg_status wi_jpeg_failed(wi_jpeg_decoder *d) {
    d->failed = 1;
    d->failure = d->cancelled ? WI_JPEG_CANCELLED : d->error.out_of_memory ? WI_JPEG_OUT_OF_MEMORY : WI_JPEG_ERROR;
    return d->failure;
}

static void wi_jpeg_progress_monitor(j_common_ptr cinfo) {
    wi_jpeg_decoder *d = cinfo->client_data;
    if (d->should_stop && d->should_stop()) {
        d->cancelled = 1;
        wi_jpeg_fail(d, "the decode was cancelled");
    }
}

void wi_jpeg_decoder_set_stop(wi_jpeg_decoder *d, int (*should_stop)(void)) {
    d->should_stop = should_stop;
    d->progress.progress_monitor = wi_jpeg_progress_monitor;
    d->cinfo.progress = should_stop ? &d->progress : NULL;
}

static uint8_t *wi_jpeg_copy(const uint8_t *bytes, size_t count) {
    uint8_t *copy = malloc(count ? count : 1);
    if (copy) memcpy(copy, bytes, count);
    return copy;
}

// CMYK as libjpeg outputs it (Adobe files store it inverted) to RGBA, with Pillow's formula: Pillow reads CMYK
// JPEGs as "CMYK;I" (c = 255 - stored), then cmyk2rgb: nk = 255 - k; r = nk - round(c * nk / 255), likewise g, b.
static void wi_jpeg_cmyk_to_rgba(uint8_t *row, JDIMENSION width) {
    for (JDIMENSION x = 0; x < width; x++) {
        uint8_t *p = row + (size_t)x * 4;
        int nk = p[3];  // 255 - (255 - stored k)
        for (int i = 0; i < 3; i++) {
            int c = 255 - p[i];
            int t = c * nk + 128;
            int v = nk - (((t >> 8) + t) >> 8);
            p[i] = (uint8_t)(v < 0 ? 0 : v);
        }
        p[3] = 255;
    }
}

// Reads output rows straight into the pixel buffer; returns how many arrived (0 when libjpeg suspended).
static JDIMENSION wi_jpeg_read_rows(wi_jpeg_decoder *d) {
    j_decompress_ptr cinfo = &d->cinfo;
    JSAMPROW rows[16];
    JDIMENSION first = cinfo->output_scanline;
    JDIMENSION count = cinfo->output_height - first;
    if (count > 16) count = 16;
    for (JDIMENSION i = 0; i < count; i++) rows[i] = d->pixels + (size_t)(first + i) * d->info.stride;
    JDIMENSION got = jpeg_read_scanlines(cinfo, rows, count);
    if (d->cmyk && !d->keep_cmyk)
        for (JDIMENSION i = 0; i < got; i++) wi_jpeg_cmyk_to_rgba(rows[i], cinfo->output_width);
    return got;
}

// One buffered-image output pass showing input up to `scan`; its input is already there, so it never suspends.
static void wi_jpeg_output_pass(wi_jpeg_decoder *d, int scan) {
    j_decompress_ptr cinfo = &d->cinfo;
    jpeg_start_output(cinfo, scan);
    while (cinfo->output_scanline < cinfo->output_height)
        if (wi_jpeg_read_rows(d) == 0) wi_jpeg_fail(d, "the output pass stalled waiting for data");
    d->rendered_scan = scan;
    if (!jpeg_finish_output(cinfo)) d->pending_finish_output = 1;
}

static void wi_jpeg_read_header_info(wi_jpeg_decoder *d) {
    j_decompress_ptr cinfo = &d->cinfo;
    wi_jpeg_info *info = &d->info;
    info->width = cinfo->image_width;
    info->height = cinfo->image_height;
    info->components = cinfo->num_components;
    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE: info->color = WI_JPEG_COLOR_GRAY; break;
    case JCS_RGB: info->color = WI_JPEG_COLOR_RGB; break;
    case JCS_YCbCr: info->color = WI_JPEG_COLOR_YCBCR; break;
    case JCS_CMYK: info->color = WI_JPEG_COLOR_CMYK; break;
    case JCS_YCCK: info->color = WI_JPEG_COLOR_YCCK; break;
    default: info->color = WI_JPEG_COLOR_OTHER; break;
    }
    info->progressive = cinfo->progressive_mode;
    info->multiple_scans = jpeg_has_multiple_scans(cinfo);
    info->arithmetic = cinfo->arith_code;
    info->data_precision = cinfo->data_precision;
    info->saw_adobe = cinfo->saw_Adobe_marker;
    info->adobe_transform = cinfo->Adobe_transform;

    static const char exif_prefix[6] = {'E', 'x', 'i', 'f', 0, 0};
    static const char xmp_prefix[] = "http://ns.adobe.com/xap/1.0/";  // followed by its NUL: 29 bytes
    for (jpeg_saved_marker_ptr m = cinfo->marker_list; m; m = m->next) {
        if (m->marker != JPEG_APP0 + 1) continue;
        if (!d->exif && m->data_length > 6 && memcmp(m->data, exif_prefix, 6) == 0) {
            d->exif = wi_jpeg_copy(m->data + 6, m->data_length - 6);
            if (d->exif) d->exif_size = m->data_length - 6;
        } else if (!d->xmp && m->data_length > sizeof xmp_prefix && memcmp(m->data, xmp_prefix, sizeof xmp_prefix) == 0) {
            d->xmp = wi_jpeg_copy(m->data + sizeof xmp_prefix, m->data_length - sizeof xmp_prefix);
            if (d->xmp) d->xmp_size = m->data_length - sizeof xmp_prefix;
        }
    }
    JOCTET *icc = NULL;
    unsigned int icc_size = 0;
    if (jpeg_read_icc_profile(cinfo, &icc, &icc_size) && icc) {
        d->icc = icc;
        d->icc_size = icc_size;
    }
}

// Decodes as far as the data allows. Every libjpeg call that can longjmp runs below a setjmp in this file.
static wi_jpeg_status wi_jpeg_process(wi_jpeg_decoder *d) {
    j_decompress_ptr cinfo = &d->cinfo;
    if (d->failed) return d->failure;
    if (setjmp(d->error.jump)) return wi_jpeg_failed(d);
    for (;;) {
        switch (d->stage) {
        case STAGE_HEADER:
            if (jpeg_read_header(cinfo, TRUE) == JPEG_SUSPENDED) return WI_JPEG_OK;
            wi_jpeg_read_header_info(d);
            d->stage = STAGE_WAIT_START;
            return WI_JPEG_OK;
        case STAGE_WAIT_START:
        case STAGE_DONE:
            return WI_JPEG_OK;
        case STAGE_SCANLINES:
            if (d->info.arithmetic && !d->end_of_data) return WI_JPEG_OK;  // see STAGE_BUFFERED
            while (cinfo->output_scanline < cinfo->output_height) {
                JDIMENSION got = wi_jpeg_read_rows(d);
                if (got == 0) return WI_JPEG_OK;
                d->rows += got;
            }
            d->stage = STAGE_FINISH;
            break;
        case STAGE_BUFFERED: {
            if (d->pending_finish_output) {
                if (!jpeg_finish_output(cinfo)) return WI_JPEG_OK;
                d->pending_finish_output = 0;
            }
            // libjpeg's arithmetic decoder cannot suspend: such files are decoded once all their data is there.
            if (d->info.arithmetic && !d->end_of_data) return WI_JPEG_OK;
            int result;
            do {
                result = jpeg_consume_input(cinfo);
                // A scan counts as complete once the next one has begun: an output pass of it then never waits
                // for input (block smoothing would otherwise want rows of the scan after it).
                if (result == JPEG_REACHED_SOS) d->last_completed_scan = cinfo->input_scan_number - 1;
                if (cinfo->input_scan_number > WI_JPEG_MAX_SCANS) wi_jpeg_fail(d, "too many scans (over 1000)");
            } while (result != JPEG_SUSPENDED && result != JPEG_REACHED_EOI);
            if (result == JPEG_SUSPENDED) return WI_JPEG_OK;
            d->last_completed_scan = cinfo->input_scan_number;
            wi_jpeg_output_pass(d, cinfo->input_scan_number);
            if (d->pending_finish_output) wi_jpeg_fail(d, "the final output pass did not finish");
            d->stage = STAGE_FINISH;
            break;
        }
        case STAGE_FINISH:
            if (!jpeg_finish_decompress(cinfo)) return WI_JPEG_OK;
            d->stage = STAGE_DONE;
            return WI_JPEG_OK;
        }
    }
}

// ---- Public API ----

wi_jpeg_decoder *wi_jpeg_decoder_create(void) {
    wi_jpeg_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->cinfo.err = wi_jpeg_error_init(&d->error);
    if (setjmp(d->error.jump)) {
        if (d->created) jpeg_destroy_decompress(&d->cinfo);
        free(d);
        return NULL;
    }
    jpeg_create_decompress(&d->cinfo);
    d->created = 1;
    d->cinfo.client_data = d;
    d->source.init_source = wi_jpeg_source_init;
    d->source.fill_input_buffer = wi_jpeg_source_fill;
    d->source.skip_input_data = wi_jpeg_source_skip;
    d->source.resync_to_restart = jpeg_resync_to_restart;
    d->source.term_source = wi_jpeg_source_term;
    d->cinfo.src = &d->source;
    jpeg_save_markers(&d->cinfo, JPEG_APP0 + 1, 0xFFFF);  // EXIF, XMP
    jpeg_save_markers(&d->cinfo, JPEG_APP0 + 2, 0xFFFF);  // ICC (read back by jpeg_read_icc_profile)
    return d;
}

void wi_jpeg_decoder_destroy(wi_jpeg_decoder *d) {
    if (!d) return;
    jpeg_destroy_decompress(&d->cinfo);
    free(d->data);
    free(d->pixels);
    free(d->exif);
    free(d->xmp);
    free(d->icc);
    free(d);
}

wi_jpeg_status wi_jpeg_decoder_feed(wi_jpeg_decoder *d, const uint8_t *data, size_t size) {
    if (d->failed) return d->failure;
    if (d->end_of_data || d->stage == STAGE_DONE) return WI_JPEG_OK;  // bytes after the end are ignored
    if (size > 0 && !wi_jpeg_append(d, data, size)) {
        strcpy(d->error.message, "cannot grow the input buffer");
        d->error.out_of_memory = 1;
        return wi_jpeg_failed(d);
    }
    return wi_jpeg_process(d);
}

wi_jpeg_status wi_jpeg_decoder_read_in_place(wi_jpeg_decoder *d, const uint8_t *data, size_t size) {
    if (d->failed) return d->failure;
    if (d->size > 0 || d->end_of_data) {
        strcpy(d->error.message, "the decoder was already fed");
        return wi_jpeg_failed(d);
    }
    d->in_place = 1;
    d->source.next_input_byte = data;
    d->source.bytes_in_buffer = data ? size : 0;
    d->end_of_data = 1;
    return wi_jpeg_process(d);
}

void wi_jpeg_decoder_release_data(wi_jpeg_decoder *d) {
    if (!d->in_place) return;
    d->source.next_input_byte = NULL;  // with end_of_data set, any further read gets the fake EOI
    d->source.bytes_in_buffer = 0;
}

wi_jpeg_status wi_jpeg_decoder_end_of_data(wi_jpeg_decoder *d) {
    if (d->failed) return d->failure;
    d->end_of_data = 1;
    return wi_jpeg_process(d);
}

int wi_jpeg_decoder_has_header(const wi_jpeg_decoder *d) { return d->stage != STAGE_HEADER; }
const wi_jpeg_info *wi_jpeg_decoder_info(const wi_jpeg_decoder *d) { return &d->info; }
int wi_jpeg_decoder_is_started(const wi_jpeg_decoder *d) { return d->stage > STAGE_WAIT_START; }
int wi_jpeg_decoder_is_complete(const wi_jpeg_decoder *d) { return d->stage == STAGE_DONE; }

uint64_t wi_jpeg_decoder_progress(const wi_jpeg_decoder *d) {
    if (d->info.multiple_scans) return (uint64_t)d->last_completed_scan;
    return d->rows;
}

wi_jpeg_status wi_jpeg_decoder_start(wi_jpeg_decoder *d, int scale_num) {
    j_decompress_ptr cinfo = &d->cinfo;
    if (d->failed) return d->failure;
    if (setjmp(d->error.jump)) return wi_jpeg_failed(d);
    if (d->stage != STAGE_WAIT_START) wi_jpeg_fail(d, "the decoder is not waiting to start");
    cinfo->scale_num = (unsigned int)(scale_num < 1 ? 1 : scale_num > 8 ? 8 : scale_num);
    cinfo->scale_denom = 8;
    d->cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    cinfo->out_color_space = d->cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    cinfo->buffered_image = d->info.multiple_scans ? TRUE : FALSE;
    jpeg_calc_output_dimensions(cinfo);
    if (cinfo->output_components != 4) wi_jpeg_fail(d, "unexpected number of output components");
    d->info.output_width = cinfo->output_width;
    d->info.output_height = cinfo->output_height;
    d->info.stride = (size_t)cinfo->output_width * 4;
    // A one-shot decode completes before anyone sees the buffer, writing every row; an incremental one may be shown
    // half done, so its rows not yet decoded must read as zero.
    size_t bytes = (size_t)cinfo->output_height * d->info.stride;
    d->pixels = d->in_place ? malloc(bytes ? bytes : 1) : calloc(1, bytes ? bytes : 1);
    if (!d->pixels) {
        d->error.out_of_memory = 1;
        wi_jpeg_fail(d, "cannot allocate the pixel buffer");
    }
    // Single-scan files: returns at once. Buffered-image mode: returns at once as well (no input is absorbed).
    if (!jpeg_start_decompress(cinfo)) wi_jpeg_fail(d, "jpeg_start_decompress suspended unexpectedly");
    d->stage = d->info.multiple_scans ? STAGE_BUFFERED : STAGE_SCANLINES;
    return wi_jpeg_process(d);
}

wi_jpeg_status wi_jpeg_decoder_render(wi_jpeg_decoder *d) {
    if (d->failed) return d->failure;
    if (d->stage != STAGE_BUFFERED || d->last_completed_scan == 0 || d->last_completed_scan == d->rendered_scan)
        return WI_JPEG_OK;
    if (setjmp(d->error.jump)) return wi_jpeg_failed(d);
    if (d->pending_finish_output) {
        if (!jpeg_finish_output(&d->cinfo)) return WI_JPEG_OK;  // between scans: nothing new to show
        d->pending_finish_output = 0;
    }
    wi_jpeg_output_pass(d, d->last_completed_scan);
    return WI_JPEG_OK;
}

const uint8_t *wi_jpeg_decoder_pixels(const wi_jpeg_decoder *d) { return d->pixels; }

uint8_t *wi_jpeg_decoder_take_pixels(wi_jpeg_decoder *d) {
    uint8_t *pixels = d->pixels;
    d->pixels = NULL;
    return pixels;
}

int wi_jpeg_decoder_is_truncated(const wi_jpeg_decoder *d) { return d->eof_in_image || d->error.data_ended_early; }
const char *wi_jpeg_decoder_message(const wi_jpeg_decoder *d) { return d->error.message; }

const uint8_t *wi_jpeg_decoder_exif(const wi_jpeg_decoder *d, size_t *size) {
    *size = d->exif_size;
    return d->exif;
}

const uint8_t *wi_jpeg_decoder_xmp(const wi_jpeg_decoder *d, size_t *size) {
    *size = d->xmp_size;
    return d->xmp;
}

void wi_jpeg_decoder_keep_cmyk(wi_jpeg_decoder *d, int keep) { d->keep_cmyk = keep; }

void wi_jpeg_cmyk_rows_to_rgba(uint8_t *pixels, size_t stride, uint32_t width, uint32_t height) {
    for (uint32_t y = 0; y < height; y++) wi_jpeg_cmyk_to_rgba(pixels + (size_t)y * stride, width);
}

const uint8_t *wi_jpeg_decoder_icc(const wi_jpeg_decoder *d, size_t *size) {
    *size = d->icc_size;
    return d->icc;
}

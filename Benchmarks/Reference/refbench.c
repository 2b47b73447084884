// refbench: the raw C loops Benchmarks/compare measures the project against. Each subcommand does the same job
// as the matching `wi-bench` workload straight on the Debian library, and prints `seconds <per-op seconds>`.
//   png N FILE...          libpng simplified API, decode to 8-bit RGBA
//   jpeg N FILE...         TurboJPEG, decode to RGBA
//   heif N FILE...         libheif, decode to interleaved RGBA, copied into one buffer
//   jpegthumb N SIZE FILE  TurboJPEG DCT scaling to the smallest M/8 still >= SIZE, then a box filter to SIZE
//   webp N FILE...         libwebp WebPDecode into a malloc'd RGBA buffer (external memory)
//   webpthumb N SIZE FILE  libwebp with use_scaling straight to the size that fits in SIZE x SIZE
//   gif N FILE             giflib DGifSlurp, then every frame composited (disposal, transparency) into its own
//                          RGBA canvas-sized buffer, as an animated image decoder keeps them
//   jxl N FILE...          libjxl JxlDecoder, every frame to its own RGBA8 buffer, on the calling thread
//   jxlmt N FILE...        the same with libjxl's thread runner (2 threads), for the runner measurement
//   tiff N FILE...         libtiff over memory (TIFFClientOpen with read/seek/size/map procs), first page,
//                          TIFFReadRGBAImageOriented to top-left RGBA
//   heifthumb N SIZE FILE...  libheif: an embedded thumbnail whose long side is >= SIZE, else the primary image,
//                          decoded to RGBA, then a box filter to fit SIZE x SIZE
// The decoders also print `frames <count>` and `pixels <sum of width*height of every frame>` of one pass over
// the files, which Benchmarks/compare checks (a loop that decodes nothing must not pass for a fast one).
//   svg N FILE...          librsvg from memory (no base file), 96 dpi, at the intrinsic size rounded up, drawn with
//                          cairo into a malloc'd ARGB32 buffer, then unpremultiplied to RGBA in place
//   pdf N FILE...          poppler-glib from memory, the first page at 72 dpi on white, drawn with cairo into a
//                          malloc'd ARGB32 buffer, then turned into RGBA in place
//   pixbuf N FILE...       gdk-pixbuf's loader (GdkPixbufLoader, from memory; the BMP and ICO reference: no other
//                          C library on Debian decodes them), to RGBA (gdk_pixbuf_add_alpha when it gave RGB)
//   lcms N PROFILE FILE    Little CMS: TurboJPEG's RGBA of FILE converted from the ICC PROFILE to lcms's built-in sRGB
//                          as jpgicc -t0 -b converts (perceptual, black-point compensation; alpha copied), the
//                          profile opened and the transform made on every pass
//   read N PATH            open + read + close of one file
//   write N DIR SIZE       write a temporary file + rename to a final name, N distinct names
// Built by Benchmarks/compare: gcc -O2 refbench.c -lpng -lturbojpeg -lheif -lwebp -lgif -ljxl -ljxl_threads -ltiff -llcms2
//   $(pkg-config --cflags --libs librsvg-2.0 poppler-glib gdk-pixbuf-2.0)
#include <cairo.h>
#include <fcntl.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <gif_lib.h>
#include <jxl/decode.h>
#include <jxl/thread_parallel_runner.h>
#include <libheif/heif.h>
#include <lcms2.h>
#include <librsvg/rsvg.h>
#include <math.h>
#include <poppler.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>
#include <time.h>
#include <turbojpeg.h>
#include <unistd.h>
#include <webp/decode.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void die(const char *what, const char *detail) {
    fprintf(stderr, "refbench: %s: %s\n", what, detail);
    exit(1);
}

typedef struct { unsigned char *bytes; size_t size; } blob;

static blob read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open", path);
    fseek(f, 0, SEEK_END);
    blob b = {NULL, (size_t)ftell(f)};
    fseek(f, 0, SEEK_SET);
    b.bytes = malloc(b.size);
    if (fread(b.bytes, 1, b.size, f) != b.size) die("cannot read", path);
    fclose(f);
    return b;
}

static size_t sink;  // keeps the decoded pixels observable

// One pass over the files counts what was decoded; main prints it (see the header).
static long frames_seen, pixels_seen;

static void counted(int w, int h) {
    frames_seen += 1;
    pixels_seen += (long)w * h;
}

static void decode_png(blob b) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, b.bytes, b.size)) die("png", image.message);
    image.format = PNG_FORMAT_RGBA;
    unsigned char *pixels = malloc(PNG_IMAGE_SIZE(image));
    if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) die("png", image.message);
    counted((int)image.width, (int)image.height);
    sink += pixels[0];
    free(pixels);
}

#ifdef REFBENCH_ONE
// The whole-process PNG row's decode: the file's own channels (gray, gray + alpha, RGB or RGBA; a palette expanded) at
// 8 bits, as `wi info` keeps what it decodes, instead of expanding every file to RGBA.
static void decode_png_stored(blob b) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, b.bytes, b.size)) die("png", image.message);
    image.format &= ~(png_uint_32)(PNG_FORMAT_FLAG_LINEAR | PNG_FORMAT_FLAG_COLORMAP);
    unsigned char *pixels = malloc(PNG_IMAGE_SIZE(image));
    if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) die("png", image.message);
    counted((int)image.width, (int)image.height);
    sink += pixels[0];
    free(pixels);
}
#endif

static void decode_jpeg(blob b) {
    tjhandle tj = tjInitDecompress();
    int w, h, sub, cs;
    if (tjDecompressHeader3(tj, b.bytes, b.size, &w, &h, &sub, &cs)) die("jpeg", tjGetErrorStr2(tj));
    unsigned char *pixels = malloc((size_t)w * h * 4);
    if (tjDecompress2(tj, b.bytes, b.size, pixels, w, 0, h, TJPF_RGBA, 0)) die("jpeg", tjGetErrorStr2(tj));
    counted(w, h);
    sink += pixels[0];
    free(pixels);
    tjDestroy(tj);
}

// Decodes one HEIF image to interleaved RGBA and copies it into one malloc'd buffer of w * h * 4 bytes.
static unsigned char *heif_rgba(struct heif_image_handle *handle, int *w, int *h) {
    struct heif_image *img;
    struct heif_error err = heif_decode_image(handle, &img, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, NULL);
    if (err.code) die("heif", err.message);
    int stride;
    const uint8_t *plane = heif_image_get_plane_readonly(img, heif_channel_interleaved, &stride);
    *w = heif_image_get_width(img, heif_channel_interleaved);
    *h = heif_image_get_height(img, heif_channel_interleaved);
    unsigned char *pixels = malloc((size_t)*w * *h * 4);
    for (int y = 0; y < *h; y++) memcpy(pixels + (size_t)y * *w * 4, plane + (size_t)y * stride, (size_t)*w * 4);
    heif_image_release(img);
    return pixels;
}

static struct heif_context *heif_open(blob b, struct heif_image_handle **primary) {
    struct heif_context *ctx = heif_context_alloc();
    struct heif_error err = heif_context_read_from_memory_without_copy(ctx, b.bytes, b.size, NULL);
    if (err.code) die("heif", err.message);
    err = heif_context_get_primary_image_handle(ctx, primary);
    if (err.code) die("heif", err.message);
    return ctx;
}

static void decode_heif(blob b) {
    struct heif_image_handle *handle;
    struct heif_context *ctx = heif_open(b, &handle);
    int w, h;
    unsigned char *pixels = heif_rgba(handle, &w, &h);
    counted(w, h);
    sink += pixels[0];
    free(pixels);
    heif_image_handle_release(handle);
    heif_context_free(ctx);
}

// Box-filters an RGBA image of sw x sh down to dw x dh (each output pixel averages its source rectangle).
static void box_resize(const unsigned char *src, int sw, int sh, unsigned char *dst, int dw, int dh) {
    for (int y = 0; y < dh; y++) {
        int y0 = (int)((long)y * sh / dh), y1 = (int)((long)(y + 1) * sh / dh);
        if (y1 <= y0) y1 = y0 + 1;
        for (int x = 0; x < dw; x++) {
            int x0 = (int)((long)x * sw / dw), x1 = (int)((long)(x + 1) * sw / dw);
            if (x1 <= x0) x1 = x0 + 1;
            unsigned sum[4] = {0, 0, 0, 0};
            for (int yy = y0; yy < y1; yy++) {
                const unsigned char *p = src + ((size_t)yy * sw + x0) * 4;
                for (int xx = x0; xx < x1; xx++, p += 4) {
                    sum[0] += p[0]; sum[1] += p[1]; sum[2] += p[2]; sum[3] += p[3];
                }
            }
            unsigned n = (unsigned)((y1 - y0) * (x1 - x0));
            unsigned char *d = dst + ((size_t)y * dw + x) * 4;
            for (int c = 0; c < 4; c++) d[c] = (unsigned char)((sum[c] + n / 2) / n);
        }
    }
}

static void thumb_jpeg(blob b, int size) {
    tjhandle tj = tjInitDecompress();
    int w, h, sub, cs, count;
    if (tjDecompressHeader3(tj, b.bytes, b.size, &w, &h, &sub, &cs)) die("jpeg", tjGetErrorStr2(tj));
    tjscalingfactor *factors = tjGetScalingFactors(&count);
    int long_side = w > h ? w : h, best_w = w, best_h = h;
    for (int i = 0; i < count; i++) {  // the smallest scaled size whose long side is still >= size
        int sw = TJSCALED(w, factors[i]), sh = TJSCALED(h, factors[i]);
        int l = sw > sh ? sw : sh;
        if (l >= size && l < (best_w > best_h ? best_w : best_h)) { best_w = sw; best_h = sh; }
    }
    (void)long_side;
    unsigned char *scaled = malloc((size_t)best_w * best_h * 4);
    if (tjDecompress2(tj, b.bytes, b.size, scaled, best_w, 0, best_h, TJPF_RGBA, 0)) die("jpeg", tjGetErrorStr2(tj));
    int dw = best_w >= best_h ? size : (int)((long)best_w * size / best_h);
    int dh = best_w >= best_h ? (int)((long)best_h * size / best_w) : size;
    unsigned char *thumb = malloc((size_t)dw * dh * 4);
    box_resize(scaled, best_w, best_h, thumb, dw, dh);
    sink += thumb[0];
    free(thumb);
    free(scaled);
    tjDestroy(tj);
}

// The size that fits in size x size keeping the aspect ratio, rounded (WICore's ImageGeometry.scaledSize).
static void fit(int w, int h, int size, int *fw, int *fh) {
    if (w <= size && h <= size) { *fw = w; *fh = h; return; }
    double ratio = (double)size / (w > h ? w : h);
    *fw = (int)(w * ratio + 0.5);
    *fh = (int)(h * ratio + 0.5);
    if (*fw < 1) *fw = 1;
    if (*fh < 1) *fh = 1;
    if (*fw > size) *fw = size;
    if (*fh > size) *fh = size;
}

// Decodes a WebP still to RGBA; size 0 is full size, else libwebp scales to fit size x size while decoding.
static void webp_to(blob b, int size) {
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) die("webp", "decoder version mismatch");
    if (WebPGetFeatures(b.bytes, b.size, &config.input) != VP8_STATUS_OK) die("webp", "bad header");
    int w = config.input.width, h = config.input.height;
    if (size > 0) {
        fit(config.input.width, config.input.height, size, &w, &h);
        if (w != config.input.width || h != config.input.height) {
            config.options.use_scaling = 1;
            config.options.scaled_width = w;
            config.options.scaled_height = h;
        }
    }
    unsigned char *pixels = malloc((size_t)w * h * 4);
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = pixels;
    config.output.u.RGBA.stride = w * 4;
    config.output.u.RGBA.size = (size_t)w * h * 4;
    if (WebPDecode(b.bytes, b.size, &config) != VP8_STATUS_OK) die("webp", "decode failed");
    counted(w, h);
    sink += pixels[0];
    free(pixels);
}

static void decode_webp(blob b) { webp_to(b, 0); }

// Decodes every frame of a JPEG XL file to RGBA8 (coalesced, oriented: libjxl's defaults), each into its own buffer.
static void *jxl_runner;
static void jxl_decode(blob b) {
    JxlDecoder *dec = JxlDecoderCreate(NULL);
    if (jxl_runner && JxlDecoderSetParallelRunner(dec, JxlThreadParallelRunner, jxl_runner) != JXL_DEC_SUCCESS)
        die("jxl", "runner");
    JxlDecoderSubscribeEvents(dec, JXL_DEC_BASIC_INFO | JXL_DEC_FULL_IMAGE);
    JxlDecoderSetInput(dec, b.bytes, b.size);
    JxlDecoderCloseInput(dec);
    JxlPixelFormat format = {4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    JxlBasicInfo info;
    unsigned char *pixels = NULL;
    for (;;) {
        JxlDecoderStatus status = JxlDecoderProcessInput(dec);
        if (status == JXL_DEC_BASIC_INFO) {
            JxlDecoderGetBasicInfo(dec, &info);
        } else if (status == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
            size_t size;
            JxlDecoderImageOutBufferSize(dec, &format, &size);
            pixels = malloc(size);
            JxlDecoderSetImageOutBuffer(dec, &format, pixels, size);
        } else if (status == JXL_DEC_FULL_IMAGE) {
            int turned = !info.have_animation && info.orientation > 4;
            counted(turned ? info.ysize : info.xsize, turned ? info.xsize : info.ysize);
            sink += pixels[0];
            free(pixels);
            pixels = NULL;
        } else if (status == JXL_DEC_SUCCESS) {
            break;
        } else {
            die("jxl", "decode failed");
        }
    }
    JxlDecoderDestroy(dec);
}

typedef struct { blob b; size_t at; } gif_reader;

static int gif_input(GifFileType *gif, GifByteType *bytes, int size) {
    gif_reader *r = gif->UserData;
    size_t left = r->b.size - r->at, n = (size_t)size < left ? (size_t)size : left;
    memcpy(bytes, r->b.bytes + r->at, n);
    r->at += n;
    return (int)n;
}

// Every frame of a GIF composited onto a transparent canvas, each kept in its own RGBA buffer.
static void decode_gif(blob b) {
    gif_reader reader = {b, 0};
    int error;
    GifFileType *gif = DGifOpen(&reader, gif_input, &error);
    if (!gif) die("gif", GifErrorString(error));
    if (DGifSlurp(gif) != GIF_OK) die("gif", GifErrorString(gif->Error));
    int cw = gif->SWidth, ch = gif->SHeight, count = gif->ImageCount;
    size_t bytes = (size_t)cw * ch * 4;
    unsigned char **frames = malloc(sizeof(unsigned char *) * count);
    unsigned char *canvas = calloc(1, bytes), *saved = malloc(bytes);
    for (int i = 0; i < count; i++) {
        SavedImage *frame = &gif->SavedImages[i];
        GifImageDesc *d = &frame->ImageDesc;
        GraphicsControlBlock gcb = {DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
        DGifSavedExtensionToGCB(gif, i, &gcb);
        ColorMapObject *map = d->ColorMap ? d->ColorMap : gif->SColorMap;
        if (!map) die("gif", "no colour map");
        if (gcb.DisposalMode == DISPOSE_PREVIOUS) memcpy(saved, canvas, bytes);
        int x0 = d->Left, y0 = d->Top, x1 = d->Left + d->Width, y1 = d->Top + d->Height;
        if (x1 > cw) x1 = cw;
        if (y1 > ch) y1 = ch;
        for (int y = y0; y < y1; y++) {
            const GifByteType *src = frame->RasterBits + (size_t)(y - y0) * d->Width;
            unsigned char *dst = canvas + ((size_t)y * cw + x0) * 4;
            for (int x = x0; x < x1; x++, src++, dst += 4) {
                int index = *src;
                if (index == gcb.TransparentColor || index >= map->ColorCount) continue;
                GifColorType c = map->Colors[index];
                dst[0] = c.Red; dst[1] = c.Green; dst[2] = c.Blue; dst[3] = 255;
            }
        }
        frames[i] = malloc(bytes);
        memcpy(frames[i], canvas, bytes);
        counted(cw, ch);
        if (gcb.DisposalMode == DISPOSE_BACKGROUND) {
            for (int y = y0; y < y1; y++) memset(canvas + ((size_t)y * cw + x0) * 4, 0, (size_t)(x1 - x0) * 4);
        } else if (gcb.DisposalMode == DISPOSE_PREVIOUS) {
            memcpy(canvas, saved, bytes);
        }
    }
    for (int i = 0; i < count; i++) {
        sink += frames[i][0];
        free(frames[i]);
    }
    free(frames);
    free(canvas);
    free(saved);
    DGifCloseFile(gif, &error);
}

// An embedded thumbnail at least `size` on its long side when there is one, else the primary image, decoded to
// RGBA and box-filtered to fit size x size.
static void heif_thumb(blob b, int size) {
    struct heif_image_handle *primary, *source;
    struct heif_context *ctx = heif_open(b, &primary);
    source = primary;
    int count = heif_image_handle_get_number_of_thumbnails(primary);
    if (count > 0) {
        heif_item_id *ids = malloc(sizeof(heif_item_id) * count);
        heif_image_handle_get_list_of_thumbnail_IDs(primary, ids, count);
        for (int i = 0; i < count; i++) {
            struct heif_image_handle *thumb;
            if (heif_image_handle_get_thumbnail(primary, ids[i], &thumb).code) continue;
            int tw = heif_image_handle_get_width(thumb), th = heif_image_handle_get_height(thumb);
            if ((tw > th ? tw : th) >= size && source == primary) source = thumb;
            else heif_image_handle_release(thumb);
        }
        free(ids);
    }
    int w, h, dw, dh;
    unsigned char *pixels = heif_rgba(source, &w, &h);
    fit(w, h, size, &dw, &dh);
    unsigned char *thumb = malloc((size_t)dw * dh * 4);
    box_resize(pixels, w, h, thumb, dw, dh);
    counted(dw, dh);
    sink += thumb[0];
    free(thumb);
    free(pixels);
    if (source != primary) heif_image_handle_release(source);
    heif_image_handle_release(primary);
    heif_context_free(ctx);
}

// A w x h cairo ARGB32 canvas over a malloc'd buffer (white when `paper`), for the vector formats.
static cairo_t *canvas(int w, int h, int paper, unsigned char **pixels, cairo_surface_t **surface) {
    *pixels = calloc((size_t)w * h, 4);
    *surface = cairo_image_surface_create_for_data(*pixels, CAIRO_FORMAT_ARGB32, w, h, w * 4);
    cairo_t *cr = cairo_create(*surface);
    if (paper) {
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_paint(cr);
    }
    return cr;
}

// cairo's premultiplied native-endian ARGB32 to straight RGBA, in place, rounding as rsvg-convert does.
static void argb_to_rgba(unsigned char *pixels, int w, int h) {
    uint32_t *words = (uint32_t *)pixels;
    for (long i = 0; i < (long)w * h; i++) {
        uint32_t v = words[i];
        unsigned a = v >> 24, r = (v >> 16) & 255, g = (v >> 8) & 255, b = v & 255;
        if (a != 255) {
            r = a ? (r * 255 + a / 2) / a : 0;
            g = a ? (g * 255 + a / 2) / a : 0;
            b = a ? (b * 255 + a / 2) / a : 0;
        }
        pixels[i * 4] = r, pixels[i * 4 + 1] = g, pixels[i * 4 + 2] = b, pixels[i * 4 + 3] = a;
    }
}

static void finish_canvas(cairo_t *cr, cairo_surface_t *surface, unsigned char *pixels, int w, int h) {
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    cairo_surface_destroy(surface);
    argb_to_rgba(pixels, w, h);
    counted(w, h);
    sink += pixels[0];
    free(pixels);
}

typedef struct { blob b; toff_t at; } tiff_reader;

static tmsize_t tiff_read(thandle_t h, void *buffer, tmsize_t size) {
    tiff_reader *r = h;
    if (r->at >= r->b.size) return 0;
    size_t n = r->b.size - r->at < (size_t)size ? r->b.size - r->at : (size_t)size;
    memcpy(buffer, r->b.bytes + r->at, n);
    r->at += n;
    return (tmsize_t)n;
}
static tmsize_t tiff_write(thandle_t h, void *buffer, tmsize_t size) { (void)h; (void)buffer; (void)size; return -1; }
static toff_t tiff_seek(thandle_t h, toff_t offset, int whence) {
    tiff_reader *r = h;
    r->at = (whence == SEEK_CUR ? r->at : whence == SEEK_END ? r->b.size : 0) + offset;
    return r->at;
}
static int tiff_close(thandle_t h) { (void)h; return 0; }
static toff_t tiff_size(thandle_t h) { return ((tiff_reader *)h)->b.size; }
static int tiff_map(thandle_t h, void **base, toff_t *size) {
    tiff_reader *r = h;
    *base = r->b.bytes;
    *size = r->b.size;
    return 1;
}
static void tiff_unmap(thandle_t h, void *base, toff_t size) { (void)h; (void)base; (void)size; }

static void decode_tiff(blob b) {
    TIFFSetWarningHandler(NULL);  // the bogus-StripByteCounts fax warns on every open
    tiff_reader reader = {b, 0};
    TIFF *tif = TIFFClientOpen("memory", "rm", &reader, tiff_read, tiff_write, tiff_seek, tiff_close, tiff_size,
                               tiff_map, tiff_unmap);
    if (!tif) die("tiff", "cannot open");
    uint32_t w = 0, h = 0;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &h);
    uint32_t *pixels = malloc((size_t)w * h * 4);
    if (!TIFFReadRGBAImageOriented(tif, w, h, pixels, ORIENTATION_TOPLEFT, 1)) die("tiff", "cannot decode");
    counted((int)w, (int)h);
    sink += pixels[0];
    free(pixels);
    TIFFClose(tif);
}

static void decode_svg(blob b) {
    GInputStream *stream = g_memory_input_stream_new_from_data(b.bytes, (gssize)b.size, NULL);
    GError *error = NULL;
    RsvgHandle *handle = rsvg_handle_new_from_stream_sync(stream, NULL, RSVG_HANDLE_FLAGS_NONE, NULL, &error);
    g_object_unref(stream);
    if (!handle) die("svg", error->message);
    rsvg_handle_set_dpi(handle, 96);
    double dw, dh;
    if (!rsvg_handle_get_intrinsic_size_in_pixels(handle, &dw, &dh)) die("svg", "no intrinsic size");
    int w = (int)ceil(dw), h = (int)ceil(dh);
    unsigned char *pixels;
    cairo_surface_t *surface;
    cairo_t *cr = canvas(w, h, 0, &pixels, &surface);
    cairo_scale(cr, w / dw, h / dh);
    RsvgRectangle viewport = {0, 0, dw, dh};
    if (!rsvg_handle_render_document(handle, cr, &viewport, &error)) die("svg", error->message);
    g_object_unref(handle);
    finish_canvas(cr, surface, pixels, w, h);
}

static void decode_pdf(blob b) {
    GBytes *bytes = g_bytes_new_static(b.bytes, b.size);  // no password: from_bytes is safe (see PDFDocument.swift)
    GError *error = NULL;
    PopplerDocument *document = poppler_document_new_from_bytes(bytes, NULL, &error);
    g_bytes_unref(bytes);
    if (!document) die("pdf", error->message);
    PopplerPage *page = poppler_document_get_page(document, 0);
    double dw, dh;
    poppler_page_get_size(page, &dw, &dh);
    int w = (int)ceil(dw), h = (int)ceil(dh);
    unsigned char *pixels;
    cairo_surface_t *surface;
    cairo_t *cr = canvas(w, h, 1, &pixels, &surface);
    cairo_scale(cr, w / dw, h / dh);
    poppler_page_render(page, cr);
    g_object_unref(page);
    g_object_unref(document);
    finish_canvas(cr, surface, pixels, w, h);
}

static void decode_pixbuf(blob b) {
    GdkPixbufLoader *loader = gdk_pixbuf_loader_new();
    GError *error = NULL;
    if (!gdk_pixbuf_loader_write(loader, b.bytes, b.size, &error) || !gdk_pixbuf_loader_close(loader, &error))
        die("pixbuf", error->message);
    GdkPixbuf *pixbuf = gdk_pixbuf_loader_get_pixbuf(loader);
    if (!pixbuf) die("pixbuf", "no image");
    GdkPixbuf *rgba = gdk_pixbuf_get_has_alpha(pixbuf) ? g_object_ref(pixbuf) : gdk_pixbuf_add_alpha(pixbuf, 0, 0, 0, 0);
    counted(gdk_pixbuf_get_width(rgba), gdk_pixbuf_get_height(rgba));
    sink += gdk_pixbuf_read_pixels(rgba)[0];
    g_object_unref(rgba);
    g_object_unref(loader);
}

static void raw_read(const char *path) {
    static unsigned char buffer[1 << 20];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) die("open", path);
    ssize_t n, total = 0;
    while ((n = read(fd, buffer, sizeof buffer)) > 0) total += n;
    close(fd);
    sink += (size_t)total;
}

static void raw_write(const char *dir, int i, const unsigned char *bytes, size_t size) {
    char tmp[4096], final[4096];
    snprintf(tmp, sizeof tmp, "%s/.tmp-%d", dir, i);
    snprintf(final, sizeof final, "%s/entry-%d", dir, i);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) die("open", tmp);
    if (write(fd, bytes, size) != (ssize_t)size) die("write", tmp);
    close(fd);
    if (rename(tmp, final)) die("rename", final);
}

// jpgicc's transform (-t0 -b: perceptual, black-point compensation, the embedded profile to lcms's built-in sRGB)
// over the decoded RGBA pixels, alpha copied: profile opened and transform made each time, as WIColor does per image.
static void lcms_to_srgb(blob profile, const unsigned char *in, unsigned char *out, int w, int h) {
    cmsHPROFILE source = cmsOpenProfileFromMem(profile.bytes, (cmsUInt32Number)profile.size);
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    if (!source || !srgb) die("lcms", "cannot open the profiles");
    cmsHTRANSFORM t = cmsCreateTransform(source, TYPE_RGBA_8, srgb, TYPE_RGBA_8, INTENT_PERCEPTUAL,
                                         cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_COPY_ALPHA);
    if (!t) die("lcms", "cannot make the transform");
    cmsDoTransformLineStride(t, in, out, w, h, w * 4, w * 4, 0, 0);
    cmsDeleteTransform(t);
    cmsCloseProfile(srgb);
    cmsCloseProfile(source);
    sink += out[(size_t)w * h * 2];
}

#ifdef REFBENCH_ONE
// The whole-process decode rows' reference (Benchmarks/compare): built with -DREFBENCH_ONE=decode_jpeg (or
// decode_png_stored, decode_webp, decode_heif, decode_gif) and -Wl,--as-needed, the program keeps that one decoder and needs only its library, as a
// C program that decodes nothing else would; `FILE...` are each read, decoded once and let go, and the counts printed.
int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        blob b = read_file(argv[i]);
        REFBENCH_ONE(b);
        free(b.bytes);
    }
    printf("frames %ld\npixels %ld\n", frames_seen, pixels_seen);
    volatile size_t observed = sink;
    (void)observed;
    return 0;
}
#else
int main(int argc, char **argv) {
    if (argc < 4) die("usage", "refbench png|jpeg|heif|webp|gif|svg|pdf|jxl|jxlmt|tiff|pixbuf|jpegthumb|webpthumb|heifthumb|lcms|read|write N ...");
    const char *cmd = argv[1];
    int n = atoi(argv[2]);
    double start, seconds;
    int counts_done = 0;
    long frames = 0, pixels = 0;
    if (!strcmp(cmd, "jxlmt")) {
        jxl_runner = JxlThreadParallelRunnerCreate(NULL, 2);
        cmd = "jxl";
    }
    if (!strcmp(cmd, "png") || !strcmp(cmd, "jpeg") || !strcmp(cmd, "heif") || !strcmp(cmd, "webp")
        || !strcmp(cmd, "gif") || !strcmp(cmd, "svg") || !strcmp(cmd, "pdf") || !strcmp(cmd, "jxl")
        || !strcmp(cmd, "tiff") || !strcmp(cmd, "pixbuf")) {
        int files = argc - 3;
        blob *blobs = malloc(sizeof(blob) * files);
        for (int i = 0; i < files; i++) blobs[i] = read_file(argv[3 + i]);
        void (*decode)(blob) = !strcmp(cmd, "png") ? decode_png : !strcmp(cmd, "jpeg") ? decode_jpeg
            : !strcmp(cmd, "webp") ? decode_webp : !strcmp(cmd, "gif") ? decode_gif
            : !strcmp(cmd, "svg") ? decode_svg : !strcmp(cmd, "pdf") ? decode_pdf : !strcmp(cmd, "jxl") ? jxl_decode
            : !strcmp(cmd, "tiff") ? decode_tiff : !strcmp(cmd, "pixbuf") ? decode_pixbuf : decode_heif;
        for (int i = 0; i < files; i++) decode(blobs[i]);  // warm-up
        counts_done = 1;
        frames = frames_seen;
        pixels = pixels_seen;
        start = now();
        for (int r = 0; r < n; r++) for (int i = 0; i < files; i++) decode(blobs[i]);
        seconds = now() - start;
    } else if (!strcmp(cmd, "jpegthumb")) {
        int size = atoi(argv[3]);
        blob b = read_file(argv[4]);
        thumb_jpeg(b, size);
        start = now();
        for (int r = 0; r < n; r++) thumb_jpeg(b, size);
        seconds = now() - start;
    } else if (!strcmp(cmd, "webpthumb") || !strcmp(cmd, "heifthumb")) {
        int size = atoi(argv[3]), files = argc - 4;
        blob *blobs = malloc(sizeof(blob) * files);
        for (int i = 0; i < files; i++) blobs[i] = read_file(argv[4 + i]);
        void (*thumb)(blob, int) = !strcmp(cmd, "webpthumb") ? webp_to : heif_thumb;
        for (int i = 0; i < files; i++) thumb(blobs[i], size);  // warm-up
        counts_done = 1;
        frames = frames_seen;
        pixels = pixels_seen;
        start = now();
        for (int r = 0; r < n; r++) for (int i = 0; i < files; i++) thumb(blobs[i], size);
        seconds = now() - start;
    } else if (!strcmp(cmd, "lcms")) {
        blob profile = read_file(argv[3]), b = read_file(argv[4]);
        tjhandle tj = tjInitDecompress();
        int w, h, sub, cs;
        if (tjDecompressHeader3(tj, b.bytes, b.size, &w, &h, &sub, &cs)) die("jpeg", tjGetErrorStr2(tj));
        unsigned char *in = malloc((size_t)w * h * 4), *out = malloc((size_t)w * h * 4);
        if (tjDecompress2(tj, b.bytes, b.size, in, w, 0, h, TJPF_RGBA, 0)) die("jpeg", tjGetErrorStr2(tj));
        tjDestroy(tj);
        lcms_to_srgb(profile, in, out, w, h);  // warm-up
        counts_done = 1;
        frames = 1;
        pixels = (long)w * h;
        start = now();
        for (int r = 0; r < n; r++) lcms_to_srgb(profile, in, out, w, h);
        seconds = now() - start;
    } else if (!strcmp(cmd, "read")) {
        raw_read(argv[3]);
        start = now();
        for (int r = 0; r < n; r++) raw_read(argv[3]);
        seconds = now() - start;
    } else if (!strcmp(cmd, "write")) {
        size_t size = (size_t)atol(argv[4]);
        unsigned char *bytes = malloc(size);
        for (size_t i = 0; i < size; i++) bytes[i] = (unsigned char)(i * 31 + 7);
        start = now();
        for (int r = 0; r < n; r++) raw_write(argv[3], r, bytes, size);
        seconds = now() - start;
    } else {
        die("unknown command", cmd);
    }
    printf("seconds %.9g\n", seconds / n);
    if (counts_done) printf("frames %ld\npixels %ld\n", frames, pixels);
    // A volatile store keeps the decoded pixels observable (an exit status tied to their sum failed the JPEG XL
    // row: its files happen to sum to 42).
    volatile size_t observed = sink;
    (void)observed;
    return 0;
}
#endif

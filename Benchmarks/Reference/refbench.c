// refbench: the raw C loops Benchmarks/compare measures the project against. Each subcommand does the same job
// as the matching `wi-bench` workload straight on the Debian library, and prints `seconds <per-op seconds>`.
//   png N FILE...          libpng simplified API, decode to 8-bit RGBA
//   jpeg N FILE...         TurboJPEG, decode to RGBA
//   heif N FILE...         libheif, decode to interleaved RGBA, copied into one buffer
//   jpegthumb N SIZE FILE  TurboJPEG DCT scaling to the smallest M/8 still >= SIZE, then a box filter to SIZE
//   read N PATH            open + read + close of one file
//   write N DIR SIZE       write a temporary file + rename to a final name, N distinct names
// Built by Benchmarks/compare: gcc -O2 refbench.c -lpng -lturbojpeg -lheif
#include <fcntl.h>
#include <libheif/heif.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <turbojpeg.h>
#include <unistd.h>

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

static void decode_png(blob b) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, b.bytes, b.size)) die("png", image.message);
    image.format = PNG_FORMAT_RGBA;
    unsigned char *pixels = malloc(PNG_IMAGE_SIZE(image));
    if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) die("png", image.message);
    sink += pixels[0];
    free(pixels);
}

static void decode_jpeg(blob b) {
    tjhandle tj = tjInitDecompress();
    int w, h, sub, cs;
    if (tjDecompressHeader3(tj, b.bytes, b.size, &w, &h, &sub, &cs)) die("jpeg", tjGetErrorStr2(tj));
    unsigned char *pixels = malloc((size_t)w * h * 4);
    if (tjDecompress2(tj, b.bytes, b.size, pixels, w, 0, h, TJPF_RGBA, 0)) die("jpeg", tjGetErrorStr2(tj));
    sink += pixels[0];
    free(pixels);
    tjDestroy(tj);
}

static void decode_heif(blob b) {
    struct heif_context *ctx = heif_context_alloc();
    struct heif_error err = heif_context_read_from_memory_without_copy(ctx, b.bytes, b.size, NULL);
    if (err.code) die("heif", err.message);
    struct heif_image_handle *handle;
    err = heif_context_get_primary_image_handle(ctx, &handle);
    if (err.code) die("heif", err.message);
    struct heif_image *img;
    err = heif_decode_image(handle, &img, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, NULL);
    if (err.code) die("heif", err.message);
    int stride;
    const uint8_t *plane = heif_image_get_plane_readonly(img, heif_channel_interleaved, &stride);
    int w = heif_image_get_width(img, heif_channel_interleaved);
    int h = heif_image_get_height(img, heif_channel_interleaved);
    unsigned char *pixels = malloc((size_t)w * h * 4);
    for (int y = 0; y < h; y++) memcpy(pixels + (size_t)y * w * 4, plane + (size_t)y * stride, (size_t)w * 4);
    sink += pixels[0];
    free(pixels);
    heif_image_release(img);
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

int main(int argc, char **argv) {
    if (argc < 4) die("usage", "refbench png|jpeg|heif|jpegthumb|read|write N ...");
    const char *cmd = argv[1];
    int n = atoi(argv[2]);
    double start, seconds;
    if (!strcmp(cmd, "png") || !strcmp(cmd, "jpeg") || !strcmp(cmd, "heif")) {
        int files = argc - 3;
        blob *blobs = malloc(sizeof(blob) * files);
        for (int i = 0; i < files; i++) blobs[i] = read_file(argv[3 + i]);
        void (*decode)(blob) = !strcmp(cmd, "png") ? decode_png : !strcmp(cmd, "jpeg") ? decode_jpeg : decode_heif;
        for (int i = 0; i < files; i++) decode(blobs[i]);  // warm-up
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
    return sink == 42 ? 1 : 0;
}

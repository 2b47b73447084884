// pnginfo: the C reference of the start-up rows (issue 26). What `wi info FILE...` does, as a whole process
// straight on libpng: read each file, decode it to 8-bit RGBA with libpng's simplified API, print one line
// `FILE png WIDTHxHEIGHT` (or an error on stderr, exit code 1). Linked against libpng alone, as a C tool would be.
// Built by Benchmarks/compare: gcc -O2 pnginfo.c -lpng
#include <png.h>
#include <stdio.h>
#include <stdlib.h>

static int describe(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) {
        fprintf(stderr, "pnginfo: %s: cannot read the file\n", path);
        return 1;
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc(size > 0 ? (size_t)size : 1);
    size_t got = bytes ? fread(bytes, 1, (size_t)size, file) : 0;
    fclose(file);
    if (!bytes || got != (size_t)size) {
        fprintf(stderr, "pnginfo: %s: cannot read the file\n", path);
        free(bytes);
        return 1;
    }
    png_image image = {0};
    image.version = PNG_IMAGE_VERSION;
    int failed = 1;
    if (png_image_begin_read_from_memory(&image, bytes, (size_t)size)) {
        image.format = PNG_FORMAT_RGBA;
        unsigned char *pixels = malloc(PNG_IMAGE_SIZE(image));
        if (pixels && png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
            printf("%s png %ux%u\n", path, image.width, image.height);
            failed = 0;
        }
        free(pixels);
    }
    if (failed) fprintf(stderr, "pnginfo: %s: %s\n", path, image.message);
    png_image_free(&image);
    free(bytes);
    return failed;
}

int main(int argc, char **argv) {
    int failed = 0;
    for (int i = 1; i < argc; i++) failed |= describe(argv[i]);
    return failed;
}

// Re-encodes a CMYK JPEG as YCCK (Adobe transform 2) with libjpeg: decode to CMYK rows, encode with
// jpeg_set_colorspace(JCS_YCCK). Used by Tests/Fixtures/make-jpeg-fixtures.sh; not part of the package.
//   cc Tests/Fixtures/tools/make-ycck.c -ljpeg -o make-ycck && ./make-ycck IN.jpg OUT.jpg QUALITY
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: make-ycck IN OUT QUALITY\n"); return 2; }
    FILE *in = fopen(argv[1], "rb"), *out = fopen(argv[2], "wb");
    if (!in || !out) { perror("open"); return 1; }
    struct jpeg_decompress_struct d;
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr de, ce;
    d.err = jpeg_std_error(&de);
    c.err = jpeg_std_error(&ce);
    jpeg_create_decompress(&d);
    jpeg_stdio_src(&d, in);
    jpeg_read_header(&d, TRUE);
    if (d.jpeg_color_space != JCS_CMYK) { fprintf(stderr, "input is not CMYK\n"); return 1; }
    d.out_color_space = JCS_CMYK;
    jpeg_start_decompress(&d);
    jpeg_create_compress(&c);
    jpeg_stdio_dest(&c, out);
    c.image_width = d.output_width;
    c.image_height = d.output_height;
    c.input_components = 4;
    c.in_color_space = JCS_CMYK;
    jpeg_set_defaults(&c);
    jpeg_set_colorspace(&c, JCS_YCCK);
    jpeg_set_quality(&c, atoi(argv[3]), TRUE);
    // The input's Adobe convention (inverted CMYK) is kept: libjpeg passes the samples through unchanged.
    jpeg_start_compress(&c, TRUE);
    JSAMPROW row = malloc((size_t)d.output_width * 4);
    while (d.output_scanline < d.output_height) {
        jpeg_read_scanlines(&d, &row, 1);
        jpeg_write_scanlines(&c, &row, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_finish_decompress(&d);
    jpeg_destroy_compress(&c);
    jpeg_destroy_decompress(&d);
    fclose(in);
    fclose(out);
    free(row);
    return 0;
}

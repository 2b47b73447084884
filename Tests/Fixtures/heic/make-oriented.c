// Writes HEIC files that heif-enc 1.15 cannot make: irot/imir (orientation) and clap (odd size without the
// grid wrapper), from raw RGB bytes. Used by make-heic-fixtures.sh; not part of the package.
//   make-oriented IN.rgb WIDTH HEIGHT ORIENTATION(1-8) MACOS_WORKAROUND(0|1) EXIF(0|1) OUT.heic
// With EXIF=1 an EXIF block whose IFD0 orientation says 6 is attached, to check that readers do not
// apply it on top of irot/imir.
#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(struct heif_error e, const char* what) {
  if (e.code != heif_error_Ok) { fprintf(stderr, "%s: %s\n", what, e.message); exit(1); }
}

int main(int argc, char** argv) {
  if (argc != 8) { fprintf(stderr, "usage: see the comment at the top\n"); return 2; }
  int w = atoi(argv[2]), h = atoi(argv[3]), orientation = atoi(argv[4]), workaround = atoi(argv[5]);
  FILE* f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 1; }
  unsigned char* rgb = malloc((size_t)w * h * 3);
  if (fread(rgb, 1, (size_t)w * h * 3, f) != (size_t)w * h * 3) { fprintf(stderr, "short input\n"); return 1; }
  fclose(f);
  heif_init(NULL);
  struct heif_image* image;
  check(heif_image_create(w, h, heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image), "create");
  check(heif_image_add_plane(image, heif_channel_interleaved, w, h, 8), "plane");
  int stride;
  uint8_t* plane = heif_image_get_plane(image, heif_channel_interleaved, &stride);
  for (int y = 0; y < h; y++) memcpy(plane + y * stride, rgb + (size_t)y * w * 3, (size_t)w * 3);
  struct heif_context* ctx = heif_context_alloc();
  struct heif_encoder* encoder;
  check(heif_context_get_encoder_for_format(ctx, heif_compression_HEVC, &encoder), "encoder");
  heif_encoder_set_lossy_quality(encoder, 90);
  struct heif_encoding_options* options = heif_encoding_options_alloc();
  options->macOS_compatibility_workaround = (uint8_t)workaround;
  options->image_orientation = (enum heif_orientation)orientation;
  struct heif_image_handle* handle;
  check(heif_context_encode_image(ctx, image, encoder, options, &handle), "encode");
  if (atoi(argv[6])) {
    // Big-endian TIFF, IFD0 with one entry: Orientation (0x0112) SHORT 1 = 6.
    static const uint8_t exif[] = {'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0,
                                   0, 0, 0, 0, 0, 0};
    check(heif_context_add_exif_metadata(ctx, handle, exif, sizeof exif), "exif");
  }
  check(heif_context_write_to_file(ctx, argv[7]), "write");
  return 0;
}

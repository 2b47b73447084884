// CHeifShim: the libheif functions WICoderHEIC calls, as a table bound with dlsym on the first HEIC, HEIF or AVIF.
//
// Why this exists: libheif brings libde265, x265, aom and dav1d, whose static initialisers (libde265's tables) and
// relocations cost every process that links it, even one that never meets HEIF. Opened on first use, a process
// that meets none never loads them. Each field has the type of the libheif function of the same name, from
// libheif's own header (__typeof__), so the compiler checks every call and no prototype is written here. Symbols
// are prefixed wi_heif_.
#ifndef CHEIFSHIM_H
#define CHEIFSHIM_H
#include <libheif/heif.h>

#define WI_HEIF_FUNCTIONS(X) \
    X(heif_context_add_XMP_metadata) \
    X(heif_context_add_exif_metadata) \
    X(heif_context_alloc) \
    X(heif_context_assign_thumbnail) \
    X(heif_context_encode_image) \
    X(heif_context_free) \
    X(heif_context_get_encoder_for_format) \
    X(heif_context_get_primary_image_handle) \
    X(heif_context_read_from_memory_without_copy) \
    X(heif_context_write) \
    X(heif_decode_image) \
    X(heif_decoding_options_alloc) \
    X(heif_decoding_options_free) \
    X(heif_encoder_release) \
    X(heif_encoder_set_lossless) \
    X(heif_encoder_set_lossy_quality) \
    X(heif_encoder_set_parameter_integer) \
    X(heif_encoder_set_parameter_string) \
    X(heif_encoding_options_alloc) \
    X(heif_encoding_options_free) \
    X(heif_get_version) \
    X(heif_have_decoder_for_format) \
    X(heif_have_encoder_for_format) \
    X(heif_image_add_plane) \
    X(heif_image_create) \
    X(heif_image_get_bits_per_pixel_range) \
    X(heif_image_get_height) \
    X(heif_image_get_plane) \
    X(heif_image_get_plane_readonly) \
    X(heif_image_get_width) \
    X(heif_image_handle_get_height) \
    X(heif_image_handle_get_ispe_height) \
    X(heif_image_handle_get_ispe_width) \
    X(heif_image_handle_get_list_of_metadata_block_IDs) \
    X(heif_image_handle_get_list_of_thumbnail_IDs) \
    X(heif_image_handle_get_luma_bits_per_pixel) \
    X(heif_image_handle_get_metadata) \
    X(heif_image_handle_get_metadata_content_type) \
    X(heif_image_handle_get_metadata_size) \
    X(heif_image_handle_get_nclx_color_profile) \
    X(heif_image_handle_get_number_of_metadata_blocks) \
    X(heif_image_handle_get_number_of_thumbnails) \
    X(heif_image_handle_get_raw_color_profile) \
    X(heif_image_handle_get_raw_color_profile_size) \
    X(heif_image_handle_get_thumbnail) \
    X(heif_image_handle_get_width) \
    X(heif_image_handle_has_alpha_channel) \
    X(heif_image_handle_release) \
    X(heif_image_is_premultiplied_alpha) \
    X(heif_image_release) \
    X(heif_image_set_nclx_color_profile) \
    X(heif_image_set_raw_color_profile) \
    X(heif_init) \
    X(heif_nclx_color_profile_alloc) \
    X(heif_nclx_color_profile_free)

#define WI_HEIF_FIELD(name) __typeof__(name) *_Nonnull name;
/// libheif's functions, bound by wi_heif_bind.
typedef struct { WI_HEIF_FUNCTIONS(WI_HEIF_FIELD) } wi_heif_functions;
#undef WI_HEIF_FIELD

/// Looks every function up in `handle` (dlopen of libheif.so.1); returns the first name it cannot find, or NULL
/// when `functions` is complete.
const char *_Nullable wi_heif_bind(void *_Nonnull handle, wi_heif_functions *_Nonnull functions);

#endif

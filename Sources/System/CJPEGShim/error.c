// See error.h: libjpeg's error and warning paths, made safe for a library.
#include "error.h"

#include <jerror.h>
#include <string.h>

static void wi_jpeg_error_exit(j_common_ptr cinfo) {
    wi_jpeg_error *error = (wi_jpeg_error *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, error->message);
    error->out_of_memory = cinfo->err->msg_code == JERR_OUT_OF_MEMORY;
    longjmp(error->jump, 1);
}

// msg_level -1 is a warning (corrupt data libjpeg worked around); 0 and up are trace messages, ignored.
static void wi_jpeg_emit_message(j_common_ptr cinfo, int msg_level) {
    wi_jpeg_error *error = (wi_jpeg_error *)cinfo->err;
    if (msg_level >= 0) return;
    if (error->warnings == 0) {
        error->first_warning_code = cinfo->err->msg_code;
        (*cinfo->err->format_message)(cinfo, error->message);
    }
    error->warnings++;
    cinfo->err->num_warnings++;
    if (cinfo->err->msg_code == JWRN_HIT_MARKER) error->data_ended_early = 1;
}

// Never print (the default writes to stderr).
static void wi_jpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

struct jpeg_error_mgr *wi_jpeg_error_init(wi_jpeg_error *error) {
    memset(error, 0, sizeof *error);
    jpeg_std_error(&error->pub);
    error->pub.error_exit = wi_jpeg_error_exit;
    error->pub.emit_message = wi_jpeg_emit_message;
    error->pub.output_message = wi_jpeg_output_message;
    error->first_warning_code = -1;
    return &error->pub;
}

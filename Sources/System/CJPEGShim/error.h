// The error manager every CJPEGShim call installs: error_exit longjmps back to the caller's setjmp (libjpeg's
// default would call exit()), and messages are counted and kept, never printed.
#ifndef WI_JPEG_ERROR_H
#define WI_JPEG_ERROR_H
#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr pub;  // first: libjpeg casts cinfo->err to this
    jmp_buf jump;
    int warnings;
    int first_warning_code;     // msg_code of the first warning, -1 when none
    int data_ended_early;       // JWRN_HIT_MARKER seen: a scan broke off before its end
    int out_of_memory;          // the failure was JERR_OUT_OF_MEMORY
    char message[JMSG_LENGTH_MAX];
} wi_jpeg_error;

/// Installs the manager on cinfo (call jpeg_std_error's defaults first; this overrides the exits and output).
struct jpeg_error_mgr *wi_jpeg_error_init(wi_jpeg_error *error);

#endif

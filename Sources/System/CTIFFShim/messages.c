// libtiff's messages, caught per handle (TIFFOpenOptionsSetErrorHandlerExtR/WarningHandlerExtR, libtiff >= 4.5).
//
// The handlers return 1, which tells libtiff not to call its process-wide handlers as well (whose default prints to
// stderr). Process-wide handlers (TIFFSetErrorHandler) are deliberately left alone: they are shared by every user of
// libtiff in the process, and one decode's handler would receive another thread's messages.
#include <stdio.h>
#include <string.h>
#include "internal.h"

static int wi_tiff_on_error(TIFF *tif, void *user_data, const char *module, const char *format, va_list args) {
    (void)tif;
    wi_tiff_messages *messages = user_data;
    if (messages == NULL || messages->message[0] != 0) return 1;
    char text[448];
    vsnprintf(text, sizeof text, format, args);
    if (module != NULL && module[0] != 0) {
        snprintf(messages->message, sizeof messages->message, "%s: %s", module, text);
    } else {
        snprintf(messages->message, sizeof messages->message, "%s", text);
    }
    return 1;
}

static int wi_tiff_on_warning(TIFF *tif, void *user_data, const char *module, const char *format, va_list args) {
    (void)tif; (void)module; (void)format; (void)args;
    wi_tiff_messages *messages = user_data;
    if (messages != NULL) messages->warnings += 1;
    return 1;
}

void wi_tiff_messages_install(TIFFOpenOptions *options, wi_tiff_messages *messages) {
    TIFFOpenOptionsSetErrorHandlerExtR(options, wi_tiff_on_error, messages);
    TIFFOpenOptionsSetWarningHandlerExtR(options, wi_tiff_on_warning, messages);
}

void wi_tiff_messages_set(wi_tiff_messages *messages, const char *text) {
    if (messages->message[0] == 0) snprintf(messages->message, sizeof messages->message, "%s", text);
}

const char *wi_tiff_version(void) { return TIFFGetVersion(); }

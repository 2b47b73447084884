// Binding libcurl's functions, and the wrappers CCurlShim.h declares (every call goes through the table).
#include <dlfcn.h>
#include <stddef.h>
#include "CCurlShim.h"
#include "functions.h"

/// The table every wrapper calls through; complete once ccurl_bind(handle, 1) returned NULL, never changed after.
static wi_curl_functions library;

const char *ccurl_bind(void *handle, int install) {
    wi_curl_functions functions;
#define WI_CURL_BIND(name) if (!(functions.name = (__typeof__(name) *)dlsym(handle, #name))) return #name;
    WI_CURL_FUNCTIONS(WI_CURL_BIND)
#undef WI_CURL_BIND
    if (install) library = functions;
    return NULL;
}

CURLcode ccurl_global_init(long flags) { return library.curl_global_init(flags); }
curl_version_info_data *ccurl_version_info(void) { return library.curl_version_info(CURLVERSION_NOW); }

CURL *ccurl_easy_init(void) { return library.curl_easy_init(); }
void ccurl_easy_cleanup(CURL *h) { library.curl_easy_cleanup(h); }
void ccurl_easy_reset(CURL *h) { library.curl_easy_reset(h); }
const char *ccurl_easy_strerror(CURLcode code) { return library.curl_easy_strerror(code); }
CURLcode ccurl_easy_setopt_long(CURL *h, CURLoption o, long v) { return library.curl_easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return library.curl_easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return library.curl_easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_pointer(CURL *h, CURLoption o, void *v) { return library.curl_easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) {
    return library.curl_easy_setopt(h, o, v);
}
CURLcode ccurl_easy_setopt_write_callback(CURL *h, curl_write_callback v) {
    return library.curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, v);
}
CURLcode ccurl_easy_setopt_header_callback(CURL *h, curl_write_callback v) {
    return library.curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, v);
}
CURLcode ccurl_easy_setopt_xferinfo_callback(CURL *h, curl_xferinfo_callback v) {
    return library.curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, v);
}
CURLcode ccurl_easy_setopt_opensocket_callback(CURL *h, curl_opensocket_callback v) {
    return library.curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, v);
}
CURLcode ccurl_easy_setopt_private(CURL *h, void *v) { return library.curl_easy_setopt(h, CURLOPT_PRIVATE, v); }
CURLcode ccurl_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return library.curl_easy_getinfo(h, i, v); }
CURLcode ccurl_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return library.curl_easy_getinfo(h, i, v); }
CURLcode ccurl_easy_getinfo_double(CURL *h, CURLINFO i, double *v) { return library.curl_easy_getinfo(h, i, v); }
CURLcode ccurl_easy_getinfo_string(CURL *h, CURLINFO i, char **v) { return library.curl_easy_getinfo(h, i, v); }
CURLcode ccurl_easy_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return library.curl_easy_getinfo(h, i, v); }

CURLM *ccurl_multi_init(void) { return library.curl_multi_init(); }
CURLMcode ccurl_multi_cleanup(CURLM *m) { return library.curl_multi_cleanup(m); }
CURLMcode ccurl_multi_add_handle(CURLM *m, CURL *h) { return library.curl_multi_add_handle(m, h); }
CURLMcode ccurl_multi_remove_handle(CURLM *m, CURL *h) { return library.curl_multi_remove_handle(m, h); }
CURLMcode ccurl_multi_perform(CURLM *m, int *running) { return library.curl_multi_perform(m, running); }
CURLMsg *ccurl_multi_info_read(CURLM *m, int *left) { return library.curl_multi_info_read(m, left); }
CURLMcode ccurl_multi_poll(CURLM *m, struct curl_waitfd *extra, unsigned int count, int timeout, int *ready) {
    return library.curl_multi_poll(m, extra, count, timeout, ready);
}
CURLMcode ccurl_multi_wakeup(CURLM *m) { return library.curl_multi_wakeup(m); }
CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return library.curl_multi_setopt(m, o, v); }

CURLSH *ccurl_share_init(void) { return library.curl_share_init(); }
CURLSHcode ccurl_share_cleanup(CURLSH *s) { return library.curl_share_cleanup(s); }
CURLSHcode ccurl_share_setopt_long(CURLSH *s, CURLSHoption o, long v) { return library.curl_share_setopt(s, o, v); }
CURLSHcode ccurl_share_setopt_lock_data(CURLSH *s, curl_lock_data v) {
    return library.curl_share_setopt(s, CURLSHOPT_SHARE, v);
}

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line) {
    return library.curl_slist_append(list, line);
}
void ccurl_slist_free_all(struct curl_slist *list) { library.curl_slist_free_all(list); }

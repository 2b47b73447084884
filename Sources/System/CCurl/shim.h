// libcurl (OpenSSL flavour). curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift
// cannot call: these typed static inline wrappers are the only way the Swift side reaches them.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>

static inline CURLcode ccurl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_write_callback(CURL *h, curl_write_callback v) {
    return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, v);
}
static inline CURLcode ccurl_easy_setopt_header_callback(CURL *h, curl_write_callback v) {
    return curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, v);
}
static inline CURLcode ccurl_easy_setopt_xferinfo_callback(CURL *h, curl_xferinfo_callback v) {
    return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, v);
}
static inline CURLcode ccurl_easy_setopt_opensocket_callback(CURL *h, curl_opensocket_callback v) {
    return curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, v);
}
static inline CURLcode ccurl_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode ccurl_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode ccurl_easy_getinfo_double(CURL *h, CURLINFO i, double *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode ccurl_easy_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode ccurl_easy_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline CURLSHcode ccurl_share_setopt_long(CURLSH *s, CURLSHoption o, long v) { return curl_share_setopt(s, o, v); }
static inline CURLSHcode ccurl_share_setopt_lock_data(CURLSH *s, curl_lock_data v) { return curl_share_setopt(s, CURLSHOPT_SHARE, v); }
// The easy handle's private pointer (CURLOPT_PRIVATE / CURLINFO_PRIVATE) names the transfer a finished message is for.
static inline CURLcode ccurl_easy_setopt_private(CURL *h, void *v) { return curl_easy_setopt(h, CURLOPT_PRIVATE, v); }
// CURLAUTH_ANY is a macro of an unsigned long expression (~CURLAUTH_DIGEST_IE) that Swift does not import.
static inline unsigned long ccurl_auth_any(void) { return CURLAUTH_ANY; }
// CURL_SOCKET_BAD is a macro: the value an open-socket callback returns to refuse a connection.
static inline curl_socket_t ccurl_socket_bad(void) { return CURL_SOCKET_BAD; }
// The finished-transfer message's fields: `data` is a union, which Swift imports awkwardly.
static inline CURLcode ccurl_msg_result(const CURLMsg *m) { return m->data.result; }
// The address inside a curl_sockaddr, which curl allocates larger than `struct sockaddr` for IPv6.
static inline const struct sockaddr *ccurl_sockaddr_address(const struct curl_sockaddr *a) { return &a->addr; }
// CURLVERSION_NOW is a macro naming the newest enum value; Swift cannot see it.
static inline curl_version_info_data *ccurl_version_info(void) { return curl_version_info(CURLVERSION_NOW); }
#endif

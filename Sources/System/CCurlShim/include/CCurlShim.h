// CCurlShim: every libcurl call WILoaderCurl makes, through a table bound with dlsym when the first curl loader
// starts (WILoaderCurl's `CurlLibrary`, WICore's `SharedLibrary`), so that a process that never loads a URL never
// loads libcurl and the 29 shared objects it brings (OpenSSL, nghttp2, ssh, LDAP, Kerberos...).
//
// Why wrappers: curl_easy_setopt, curl_easy_getinfo, curl_multi_setopt and curl_share_setopt are variadic, which
// Swift cannot call, so each use has a typed wrapper; the others are wrapped too so that every call goes through the
// table. The table's fields are typed from curl.h (__typeof__, functions.h), so the compiler checks every call; the
// wrappers are defined in functions.c. No wrapper may be called before ccurl_bind(handle, 1) returned NULL.
#ifndef CCURLSHIM_H
#define CCURLSHIM_H
#include <curl/curl.h>

/// Looks every function up in `handle` (dlopen of libcurl.so.4); returns the first name it cannot find, or NULL
/// when all were found, after making them the ones the wrappers call when `install` is nonzero.
const char *ccurl_bind(void *handle, int install);

CURLcode ccurl_global_init(long flags);
curl_version_info_data *ccurl_version_info(void);

CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *h);
void ccurl_easy_reset(CURL *h);
const char *ccurl_easy_strerror(CURLcode code);
CURLcode ccurl_easy_setopt_long(CURL *h, CURLoption o, long v);
CURLcode ccurl_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v);
CURLcode ccurl_easy_setopt_string(CURL *h, CURLoption o, const char *v);
CURLcode ccurl_easy_setopt_pointer(CURL *h, CURLoption o, void *v);
CURLcode ccurl_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v);
CURLcode ccurl_easy_setopt_write_callback(CURL *h, curl_write_callback v);
CURLcode ccurl_easy_setopt_header_callback(CURL *h, curl_write_callback v);
CURLcode ccurl_easy_setopt_xferinfo_callback(CURL *h, curl_xferinfo_callback v);
CURLcode ccurl_easy_setopt_opensocket_callback(CURL *h, curl_opensocket_callback v);
/// The easy handle's private pointer (CURLOPT_PRIVATE / CURLINFO_PRIVATE) names the transfer a message is for.
CURLcode ccurl_easy_setopt_private(CURL *h, void *v);
CURLcode ccurl_easy_getinfo_long(CURL *h, CURLINFO i, long *v);
CURLcode ccurl_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v);
CURLcode ccurl_easy_getinfo_double(CURL *h, CURLINFO i, double *v);
CURLcode ccurl_easy_getinfo_string(CURL *h, CURLINFO i, char **v);
CURLcode ccurl_easy_getinfo_pointer(CURL *h, CURLINFO i, void **v);

CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_cleanup(CURLM *m);
CURLMcode ccurl_multi_add_handle(CURLM *m, CURL *h);
CURLMcode ccurl_multi_remove_handle(CURLM *m, CURL *h);
CURLMcode ccurl_multi_perform(CURLM *m, int *running);
CURLMsg *ccurl_multi_info_read(CURLM *m, int *left);
CURLMcode ccurl_multi_poll(CURLM *m, struct curl_waitfd *extra, unsigned int count, int timeout, int *ready);
CURLMcode ccurl_multi_wakeup(CURLM *m);
CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v);

CURLSH *ccurl_share_init(void);
CURLSHcode ccurl_share_cleanup(CURLSH *s);
CURLSHcode ccurl_share_setopt_long(CURLSH *s, CURLSHoption o, long v);
CURLSHcode ccurl_share_setopt_lock_data(CURLSH *s, curl_lock_data v);

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line);
void ccurl_slist_free_all(struct curl_slist *list);

// Macros and a union Swift does not import; these touch no libcurl function.
/// CURLAUTH_ANY is a macro of an unsigned long expression (~CURLAUTH_DIGEST_IE).
static inline unsigned long ccurl_auth_any(void) { return CURLAUTH_ANY; }
/// CURL_SOCKET_BAD: the value an open-socket callback returns to refuse a connection.
static inline curl_socket_t ccurl_socket_bad(void) { return CURL_SOCKET_BAD; }
/// The finished-transfer message's result (`data` is a union).
static inline CURLcode ccurl_msg_result(const CURLMsg *m) { return m->data.result; }
/// The address inside a curl_sockaddr, which curl allocates larger than `struct sockaddr` for IPv6.
static inline const struct sockaddr *ccurl_sockaddr_address(const struct curl_sockaddr *a) { return &a->addr; }
#endif

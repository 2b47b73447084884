// libcurl's functions as a table (see CCurlShim.h): each field has the type of the function of the same name, from
// curl.h. Not seen by Swift.
#ifndef CCURLSHIM_FUNCTIONS_H
#define CCURLSHIM_FUNCTIONS_H
#include <curl/curl.h>

#define WI_CURL_FUNCTIONS(X) \
    X(curl_easy_cleanup) \
    X(curl_easy_getinfo) \
    X(curl_easy_init) \
    X(curl_easy_reset) \
    X(curl_easy_setopt) \
    X(curl_easy_strerror) \
    X(curl_global_init) \
    X(curl_multi_add_handle) \
    X(curl_multi_cleanup) \
    X(curl_multi_info_read) \
    X(curl_multi_init) \
    X(curl_multi_perform) \
    X(curl_multi_poll) \
    X(curl_multi_remove_handle) \
    X(curl_multi_setopt) \
    X(curl_multi_wakeup) \
    X(curl_share_cleanup) \
    X(curl_share_init) \
    X(curl_share_setopt) \
    X(curl_slist_append) \
    X(curl_slist_free_all) \
    X(curl_version_info)

#define WI_CURL_FIELD(name) __typeof__(name) *name;
typedef struct { WI_CURL_FUNCTIONS(WI_CURL_FIELD) } wi_curl_functions;
#undef WI_CURL_FIELD

#endif

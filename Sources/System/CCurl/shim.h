// libcurl's declarations (OpenSSL flavour): its types, options and codes. Its functions are called through
// CCurlShim's table, bound with dlsym when a curl loader starts its first http(s) load (CurlLibrary), never directly.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>
#endif

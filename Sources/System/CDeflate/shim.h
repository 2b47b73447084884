// libdeflate, as Debian's libdeflate-dev installs it: whole-buffer DEFLATE/zlib compression and decompression,
// faster than zlib. Only CPNGShim includes this (the PNG coder's image data path); no Swift file imports it.
#include <libdeflate.h>

// libwebp with its demux (animated decode) and mux (container, metadata) libraries.
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
